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
  EXPECT_EQ(found[0], (UnmappedResource{"example.com/gpu", "gpu.example.com", "team/p", 2}));
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

}  // namespace
}  // namespace dra::extended
