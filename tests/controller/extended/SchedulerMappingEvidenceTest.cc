#include <gtest/gtest.h>

#include "controller/extended/SchedulerMappingEvidence.h"

namespace dra::extended {
namespace {

api::PodView Pending(const std::string& message, const std::string& node = "") {
  api::PodView pod;
  pod.meta.namespace_name = "team";
  pod.meta.name = "p";
  pod.node_name = node;
  pod.scheduled = std::make_shared<const api::PodView::ScheduledCondition>(
      api::PodView::ScheduledCondition{"False", "Unschedulable", message});
  return pod;
}

std::shared_ptr<const api::NodeView> Node(std::string name, int64_t plugin_gpus = 0) {
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = std::move(name);
  if (plugin_gpus > 0) {
    node->allocatable_extended.emplace_back("example.com/gpu",
                                            kube::Quantity::FromInt64(plugin_gpus));
  }
  return node;
}

ExtendedResourceMapping GpuMapping() {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = "gpu.example.com";
  c->extended_resource_name = "example.com/gpu";
  return ExtendedResourceMapping::Build({c});
}

TEST(SchedulerMappingEvidenceTest, CountsInsufficientPerResourceBeforePreemption) {
  auto counts = SchedulerMappingEvidence::InsufficientCounts(
      "0/5 nodes are available: 2 Insufficient example.com/gpu, 1 Insufficient cpu, 2 node(s) "
      "had untolerated taint. preemption: 0/5 nodes are available: 3 Insufficient "
      "example.com/gpu.");
  EXPECT_EQ(counts, (std::map<std::string, int>{{"cpu", 1}, {"example.com/gpu", 2}}));
  EXPECT_EQ(SchedulerMappingEvidence::InsufficientCounts("0/1 nodes are available: 1 "
                                                         "Insufficient example.com/gpu."),
            (std::map<std::string, int>{{"example.com/gpu", 1}}));
  EXPECT_TRUE(SchedulerMappingEvidence::InsufficientCounts("Insufficient x").empty());
  EXPECT_TRUE(SchedulerMappingEvidence::InsufficientCounts("").empty());
}

TEST(SchedulerMappingEvidenceTest, InsufficientOnNodesWithoutAPluginIsTheHazard) {
  auto mapping = GpuMapping();
  auto found = SchedulerMappingEvidence::FromPod(
      Pending("0/2 nodes are available: 2 Insufficient example.com/gpu."), mapping,
      {Node("a"), Node("b", 4)});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0],
            (UnmappedResource{"example.com/gpu", "gpu.example.com", "team/p", 2, std::nullopt}));
  auto finding = SchedulerMappingEvidence::Finding(found[0]);
  EXPECT_EQ(finding.kind, MappingFinding::Kind::kOrderHazard);
  EXPECT_EQ(finding.object_name, "gpu.example.com");
}

TEST(SchedulerMappingEvidenceTest, DevicePluginsExplainingTheCountAreNoEvidence) {
  auto mapping = GpuMapping();
  // One node serves the resource by device plugin and is full: its "Insufficient" is its own.
  EXPECT_TRUE(SchedulerMappingEvidence::FromPod(
                  Pending("0/2 nodes are available: 1 Insufficient example.com/gpu."), mapping,
                  {Node("a"), Node("b", 4)})
                  .empty());
  // No class serves the resource: nothing to say about the mapping.
  EXPECT_TRUE(
      SchedulerMappingEvidence::FromPod(
          Pending("0/1 nodes are available: 1 Insufficient other.com/gpu."), mapping, {Node("a")})
          .empty());
  // A bound Pod says nothing about the scheduler now.
  EXPECT_TRUE(SchedulerMappingEvidence::FromPod(
                  Pending("0/1 nodes are available: 1 Insufficient example.com/gpu.", "a"), mapping,
                  {Node("a")})
                  .empty());
}

// A class touched at `refreshed_at` (its refresh annotation), serving example.com/gpu.
ExtendedResourceMapping TouchedGpuMapping(int64_t refreshed_at) {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = "gpu.example.com";
  c->extended_resource_name = "example.com/gpu";
  c->refreshed_at = refreshed_at;
  return ExtendedResourceMapping::Build({c});
}

constexpr int64_t kTouched = 1'800'000'000;  // 2027-01-15T08:00:00Z

TEST(SchedulerMappingEvidenceTest, FindingsLeaveOutARefusalTheSchedulerHasNotRetriedSinceARepair) {
  std::vector<std::shared_ptr<const api::PodView>> pods{
      std::make_shared<api::PodView>(
          Pending("0/1 nodes are available: 1 Insufficient example.com/gpu.")),
      std::make_shared<api::PodView>(
          Pending("0/1 nodes are available: 1 Insufficient example.com/gpu."))};
  auto never = SchedulerMappingEvidence::Findings(pods, GpuMapping(), {Node("a")}, kTouched);
  ASSERT_EQ(never.size(), 1u);  // one per class and resource
  EXPECT_EQ(never[0].kind, MappingFinding::Kind::kOrderHazard);
  auto touched = TouchedGpuMapping(kTouched);
  EXPECT_TRUE(
      SchedulerMappingEvidence::Findings(pods, touched, {Node("a")}, kTouched + 60).empty());
  auto retry_over = kTouched + SchedulerMappingEvidence::kSchedulerRetryWithin.count();
  EXPECT_EQ(SchedulerMappingEvidence::Findings(pods, touched, {Node("a")}, retry_over).size(), 1u);
}

TEST(SchedulerMappingEvidenceTest, NoteSaysWhenTheClassWasTouchedAndWhenTheSchedulerRetries) {
  auto found = SchedulerMappingEvidence::FromPod(
      Pending("0/1 nodes are available: 1 Insufficient example.com/gpu."),
      TouchedGpuMapping(kTouched), {Node("a")});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].class_refreshed_at, kTouched);
  std::string pending = SchedulerMappingEvidence::Note(found[0], kTouched + 60);
  EXPECT_NE(pending.find("was touched at 2027-01-15T08:00:00Z"), std::string::npos) << pending;
  EXPECT_NE(pending.find("unschedulable flush period"), std::string::npos) << pending;
  EXPECT_NE(pending.find("by 2027-01-15T08:05:30Z"), std::string::npos) << pending;
  EXPECT_EQ(pending.find("Fix: touch the class"), std::string::npos) << pending;
  std::string still = SchedulerMappingEvidence::Note(found[0], kTouched + 600);
  EXPECT_NE(still.find("Fix: touch the class"), std::string::npos) << still;
  EXPECT_NE(still.find("the hazard is still there"), std::string::npos) << still;
}

}  // namespace
}  // namespace dra::extended
