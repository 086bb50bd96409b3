#include <gtest/gtest.h>

#include <algorithm>

#include "controller/docs/MetricReference.h"

namespace dra::docs {
namespace {

const MetricReference::Family* Find(const std::vector<MetricReference::Family>& families,
                                    const std::string& name) {
  auto it =
      std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.name == name; });
  return it == families.end() ? nullptr : &*it;
}

TEST(MetricReferenceTest, RegisteredFamiliesCarryTypeHelpAndDeclaredLabels) {
  auto families = MetricReference::RegisteredFamilies();
  ASSERT_TRUE(families.ok()) << families.status().ToString();
  const auto* requests = Find(*families, "rest_client_requests_total");
  ASSERT_NE(requests, nullptr);
  EXPECT_EQ(requests->type, "counter");
  EXPECT_EQ(requests->labels, (std::vector<std::string>{"code", "method", "host"}));
  const auto* reconcile = Find(*families, "controller_runtime_reconcile_time_seconds");
  ASSERT_NE(reconcile, nullptr);
  EXPECT_EQ(reconcile->type, "histogram");
  for (const char* name :
       {"dra_controller_build_info", "dra_controller_feature_enabled",
        "dra_controller_selector_errors_total", "dra_controller_health_objects", "workqueue_depth",
        "reflector_syncs_total", "leader_election_master_status",
        "dra_controller_kubelet_health_writes_total",
        "dra_controller_extended_resource_leaked_claims"}) {
    EXPECT_NE(Find(*families, name), nullptr) << name;
  }
  for (const auto& family : *families) EXPECT_FALSE(family.help.empty()) << family.name;
}

TEST(MetricReferenceTest, AllocationFamiliesComeWithTheirLabelNamesFromAnEmptyInventory) {
  auto families = MetricReference::AllocationFamilies();
  const auto* published = Find(families, "dra_controller_devices_published");
  ASSERT_NE(published, nullptr);
  EXPECT_EQ(published->type, "gauge");
  EXPECT_EQ(published->labels,
            (std::vector<std::string>{"driver", "pool", "node", "device_class"}));
  EXPECT_NE(Find(families, "dra_controller_extended_resource_pods_pending"), nullptr);
  EXPECT_NE(Find(families, "dra_controller_allocated_device_info"), nullptr);
}

}  // namespace
}  // namespace dra::docs
