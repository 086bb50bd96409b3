// The bug of issue 38 item 2 on the real v1.37.2 control plane: a
// partitionable GPU (a counter slice and a device slice, resourceSliceCount
// 2; a full device and two halves consuming the same shared counters) whose
// full device the real scheduler allocates. The scheduler then refuses a
// half, and every operator view must say so: the metrics (no allocatable
// half, two held back by their counters), `devices` (both halves
// unavailable) and `explain` (no node fits). Once the full device is
// released, the scheduler places the half and the views follow.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/PodExplainer.h"
#include "controller/metrics/AllocationMetrics.h"
#include "controller/report/DeviceListing.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/InventoryClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kNode = "pgpu-node";
constexpr const char* kDriver = "pgpu.example.com";
constexpr const char* kPool = "pgpu-node-gpu0";
constexpr const char* kFullClass = "pgpu-full.example.com";
constexpr const char* kHalfClass = "pgpu-half.example.com";
constexpr const char* kFullResource = "example.com/pgpu-full";
constexpr const char* kHalfResource = "example.com/pgpu-half";

std::string ProfileClass(const std::string& name, const std::string& resource,
                         const std::string& profile) {
  return DeviceClassManifest(name, resource,
                             "device.driver == \"" + std::string(kDriver) +
                                 "\" && device.attributes[\"" + kDriver + "\"].profile == \"" +
                                 profile + "\"");
}

json SliceBase(const std::string& name) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"driver", kDriver},
            {"nodeName", kNode},
            {"pool", {{"name", kPool}, {"generation", 1}, {"resourceSliceCount", 2}}}}}};
}

std::string CounterSlice() {
  json slice = SliceBase("pgpu-counters");
  slice["spec"]["sharedCounters"] =
      json::array({{{"name", "gpu-0"}, {"counters", {{"memory", {{"value", "80Gi"}}}}}}});
  return slice.dump();
}

json Partition(const std::string& name, const std::string& profile, const std::string& memory) {
  return {
      {"name", name},
      {"attributes", {{"profile", {{"string", profile}}}}},
      {"capacity", {{"memory", {{"value", memory}}}}},
      {"consumesCounters",
       json::array({{{"counterSet", "gpu-0"}, {"counters", {{"memory", {{"value", memory}}}}}}})}};
}

std::string DeviceSlice() {
  json slice = SliceBase("pgpu-devices");
  slice["spec"]["devices"] =
      json::array({Partition("full", "full", "80Gi"), Partition("half-0", "half", "40Gi"),
                   Partition("half-1", "half", "40Gi")});
  return slice.dump();
}

// The sum of `family`'s samples whose line contains every one of `parts`.
double Sum(const std::string& exposition, const std::string& family,
           const std::vector<std::string>& parts) {
  double sum = 0;
  std::istringstream in(exposition);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(family + "{")) continue;
    bool all = true;
    for (const auto& part : parts) all = all && line.find(part) != std::string::npos;
    if (all) sum += std::strtod(line.c_str() + line.rfind('}') + 1, nullptr);
  }
  return sum;
}

class PartitionableGpuViewsTest : public InventoryClusterTest {
 protected:
  void SetUp() override {
    InventoryClusterTest::SetUp();
    if (Skipped()) return;
    ASSERT_TRUE(ApplyFleet({std::string(kNode) + ":1:24Gi:pgpu-plain"}));
    ASSERT_TRUE(
        ApplyOwned("deviceclass", kFullClass, ProfileClass(kFullClass, kFullResource, "full")));
    ASSERT_TRUE(
        ApplyOwned("deviceclass", kHalfClass, ProfileClass(kHalfClass, kHalfResource, "half")));
    ASSERT_TRUE(ApplyOwned("resourceslice", "pgpu-counters", CounterSlice()));
    ASSERT_TRUE(ApplyOwned("resourceslice", "pgpu-devices", DeviceSlice()));
    ASSERT_TRUE(CreateNamespace("pgpu"));
    ASSERT_TRUE(StartInventory());
  }

  std::string Metrics() const {
    metrics::MetricsSources sources;
    sources.inventory = &inventory_;
    return metrics::AllocationMetrics(sources).Render();
  }

  // How many of `class_name`'s devices the metrics count in `family`.
  double ClassGauge(const std::string& text, const std::string& family,
                    const std::string& class_name, const std::string& reason = "") const {
    std::vector<std::string> parts{"device_class=\"" + class_name + "\""};
    if (!reason.empty()) parts.push_back("reason=\"" + reason + "\"");
    return Sum(text, family, parts);
  }

  // `explain`'s fitting nodes for a Pod asking for one half, and its summary.
  // The Pod is never created, so it gets here what the API server would make
  // of it: quantities as strings, and requests defaulted from the limits.
  extended::PodExplanation ExplainHalfPod() const {
    auto manifest = nlohmann::json::parse(ExtendedResourcePodManifest("probe", ns_, kHalfResource));
    auto& resources = manifest["spec"]["containers"][0]["resources"];
    resources["limits"][kHalfResource] = "1";
    resources["requests"] = resources["limits"];
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    EXPECT_EQ(parser.parse(manifest.dump()).get(doc), simdjson::SUCCESS);
    auto pod = api::PodView::FromJson(doc);
    EXPECT_TRUE(pod.ok()) << pod.status().ToString();
    auto node = std::make_shared<api::NodeView>();
    node->meta.name = kNode;
    std::vector<std::shared_ptr<const api::NodeView>> nodes{node};
    auto mapping = extended::ExtendedResourceMapping::Build(inventory_.ClassObjects());
    return extended::PodExplainer::Explain(pod.ok() ? *pod : api::PodView{},
                                           {mapping, nodes, inventory_, {}, {}});
  }

  // The halves' STATE cells in `devices`, sorted.
  std::vector<std::string> HalfStates() const {
    std::vector<std::string> states;
    for (const auto& row : report::DeviceListing::Build(inventory_, {"", kHalfClass, "", ""})) {
      states.push_back(row.state + (row.reason.empty() ? "" : " (" + row.reason + ")"));
    }
    std::sort(states.begin(), states.end());  // whichever half the scheduler takes
    return states;
  }
};

TEST_F(PartitionableGpuViewsTest, HalvesOfAnAllocatedGpuAreNotFreeInAnyView) {
  auto published = WaitFor("the inventory to see both halves free", 30s,
                           [&] { return inventory_.Count(kHalfClass, kNode).free == 2; });
  ASSERT_TRUE(published.ok()) << published.ToString();
  EXPECT_EQ(ClassGauge(Metrics(), "dra_controller_devices_allocatable", kHalfClass), 2);

  ASSERT_TRUE(cluster_->Create(ExtendedResourcePodManifest("whole", ns_, kFullResource)).ok());
  auto bound = WaitFor("the full GPU's Pod bound", 60s, [&] { return !NodeOf("whole").empty(); });
  ASSERT_TRUE(bound.ok()) << bound.ToString();
  ASSERT_EQ(NodeOf("whole"), kNode);
  auto followed = WaitFor("the inventory to see the full GPU allocated", 30s,
                          [&] { return inventory_.Count(kFullClass, kNode).allocated == 1; });
  ASSERT_TRUE(followed.ok()) << followed.ToString();

  // The scheduler refuses a half...
  ASSERT_TRUE(cluster_->Create(ExtendedResourcePodManifest("half", ns_, kHalfResource)).ok());
  json pending;
  auto refused = WaitFor(
      "the half's Pod reported unschedulable", 60s,
      [&] {
        pending = Pod("half");
        return IsUnschedulable(pending);
      },
      [&] { return pending.value("status", json()).dump(); });
  ASSERT_TRUE(refused.ok()) << refused.ToString();

  // ...and so do the metrics, `devices` and `explain`.
  std::string text = Metrics();
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_allocatable", kHalfClass), 0) << text;
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_allocated", kHalfClass), 0);
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_unavailable", kHalfClass, "counters_in_use"),
            2);
  EXPECT_EQ(Sum(text, "dra_controller_extended_resource_allocatable",
                {"extended_resource=\"" + std::string(kHalfResource) + "\""}),
            0);
  EXPECT_EQ(HalfStates(), (std::vector<std::string>{"unavailable (counters in use)",
                                                    "unavailable (counters in use)"}));
  EXPECT_TRUE(report::DeviceListing::Build(inventory_, {"", kHalfClass, "", "free"}).empty());
  auto explanation = ExplainHalfPod();
  EXPECT_EQ(explanation.fitting_nodes, 0) << explanation.summary;
  EXPECT_NE(explanation.summary.find("2 with counters in use"), std::string::npos)
      << explanation.summary;

  // Released, the full GPU's counters go to the half the scheduler now
  // places; the other half still fits in what is left. Releasing the claim is
  // kube-controller-manager's work, hence 90 s.
  ASSERT_TRUE(cluster_
                  ->Kubectl({"delete", "pod", "whole", "-n", ns_, "--grace-period=0", "--force",
                             "--wait=false"})
                  .ok());
  auto placed = WaitFor("the half's Pod bound", 90s, [&] { return !NodeOf("half").empty(); });
  ASSERT_TRUE(placed.ok()) << placed.ToString();
  auto settled = WaitFor("the inventory to see one half allocated", 30s, [&] {
    auto counts = inventory_.Count(kHalfClass, kNode);
    return counts.allocated == 1 && counts.free == 1;
  });
  ASSERT_TRUE(settled.ok()) << settled.ToString();
  text = Metrics();
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_allocatable", kHalfClass), 1) << text;
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_allocated", kHalfClass), 1);
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_allocatable", kFullClass), 0);
  EXPECT_EQ(ClassGauge(text, "dra_controller_devices_unavailable", kFullClass, "counters_in_use"),
            1);
  EXPECT_EQ(HalfStates(), (std::vector<std::string>{"allocated", "free"}));
  EXPECT_EQ(ExplainHalfPod().fitting_nodes, 1);
}

}  // namespace
}  // namespace dra::testing
