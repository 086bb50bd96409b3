#include "tests/support/SchedulingClusterTest.h"

#include "tests/support/FleetManifests.h"

namespace dra::testing {

using nlohmann::json;

void SchedulingClusterTest::TearDown() {
  if (!cluster_) return;
  if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) {
    (void)cluster_->Kubectl({"delete", it->first, it->second, "--ignore-not-found"});
  }
  if (!fleet_.empty()) RemoveFakeFleet(*cluster_, fleet_);
}

::testing::AssertionResult SchedulingClusterTest::ApplyFleet(
    const std::vector<std::string>& fleet) {
  fleet_ = fleet;
  auto applied = ApplyFakeFleet(*cluster_, fleet);
  if (applied.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << applied.ToString();
}

::testing::AssertionResult SchedulingClusterTest::ApplyOwned(const std::string& kind,
                                                             const std::string& name,
                                                             const std::string& manifest) {
  owned_.emplace_back(kind, name);
  auto applied = cluster_->Apply(manifest);
  if (applied.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << kind << " " << name << ": " << applied.ToString();
}

::testing::AssertionResult SchedulingClusterTest::CreateNamespace(const std::string& prefix) {
  auto ns = cluster_->CreateTestNamespace(prefix);
  if (!ns.ok()) return ::testing::AssertionFailure() << ns.status().ToString();
  ns_ = *ns;
  return ::testing::AssertionSuccess();
}

json SchedulingClusterTest::Pod(const std::string& name) {
  auto pod = cluster_->GetJson({"get", "pod", name, "-n", ns_});
  return pod.ok() ? *pod : json();
}

std::string SchedulingClusterTest::NodeOf(const std::string& name) {
  return Pod(name).value("/spec/nodeName"_json_pointer, std::string());
}

bool SchedulingClusterTest::Unschedulable(const std::string& name) {
  return IsUnschedulable(Pod(name));
}

bool SchedulingClusterTest::IsUnschedulable(const json& pod) {
  for (const auto& c : pod.value("/status/conditions"_json_pointer, json::array())) {
    if (c.value("type", "") == "PodScheduled" && c.value("status", "") == "False") return true;
  }
  return false;
}

}  // namespace dra::testing
