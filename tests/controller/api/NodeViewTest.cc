#include <gtest/gtest.h>

#include "controller/api/NodeView.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

using testing::Project;

TEST(NodeViewTest, KeepsExtendedAllocatableReadyAndUnschedulable) {
  auto node = Project<NodeView>(R"({"kind":"Node","metadata":{"name":"node-1","labels":{"a":"b"}},
    "spec":{"unschedulable":true},
    "status":{"allocatable":{"cpu":"8","memory":"64Gi","example.com/gpu":"4","hugepages-2Mi":"0",
                             "kubernetes.io/foo":"1","deviceclass.resource.kubernetes.io/x":"1",
                             "nvidia.com/gpu":"0"},
              "conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"True"}]}})");
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_EQ(node->allocatable_extended.size(), 2u);
  EXPECT_EQ(node->allocatable_extended[0].first, "example.com/gpu");
  EXPECT_EQ(node->Allocatable("example.com/gpu"), kube::Quantity::FromInt64(4));
  EXPECT_TRUE(node->Allocatable("nvidia.com/gpu").IsZero());
  EXPECT_TRUE(node->Allocatable("missing.com/x").IsZero());
  EXPECT_EQ(node->ready, NodeView::Readiness::kReady);
  EXPECT_TRUE(node->unschedulable);
}

TEST(NodeViewTest, NullsMissingAndWrongTypes) {
  auto node = Project<NodeView>(
      R"({"metadata":{"name":"n","labels":null},"spec":null,"status":{"allocatable":null,"conditions":null}})");
  ASSERT_TRUE(node.ok());
  EXPECT_TRUE(node->allocatable_extended.empty());
  EXPECT_EQ(node->ready, NodeView::Readiness::kUnknown);
  EXPECT_FALSE(node->unschedulable);
  auto odd = Project<NodeView>(
      R"({"metadata":{"name":"n"},"spec":{"unschedulable":"yes"},
          "status":{"allocatable":{"a.com/x":4,"b.com/y":"junk"},
                    "conditions":[{"type":"Ready","status":"False"}]}})");
  ASSERT_TRUE(odd.ok());
  EXPECT_TRUE(odd->allocatable_extended.empty());
  EXPECT_FALSE(odd->unschedulable);
  EXPECT_EQ(odd->ready, NodeView::Readiness::kNotReady);
  EXPECT_FALSE(Project<NodeView>(R"("node")").ok());
}

}  // namespace
}  // namespace dra::api
