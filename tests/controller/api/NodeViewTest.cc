#include <gtest/gtest.h>

#include "controller/api/NodeView.h"
#include "tests/controller/api/ProjectionTestUtil.h"
#include "tests/support/ProtoWriter.h"

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

// The same Node in protobuf (core/v1 field numbers) projects alike.
TEST(NodeViewTest, ProtobufReadsWhatJsonDoes) {
  using kube::testing::ProtoWriter;
  auto quantity = [](const char* name, const char* value) {
    return ProtoWriter().Bytes(1, name).Message(2, ProtoWriter().Bytes(1, value));
  };
  ProtoWriter status;
  status.Message(2, quantity("cpu", "8"))
      .Message(2, quantity("example.com/gpu", "4"))
      .Message(2, quantity("kubernetes.io/foo", "1"))
      .Message(2, quantity("vendor.io/fpga", "bad"))
      .Message(4, ProtoWriter().Bytes(1, "MemoryPressure").Bytes(2, "False"))
      .Message(4, ProtoWriter().Bytes(1, "Ready").Bytes(2, "False"));
  std::string node = ProtoWriter()
                         .Message(1, ProtoWriter().Bytes(1, "node-1").StringEntry(11, "a", "b"))
                         .Message(2, ProtoWriter().Varint(4, 1))
                         .Message(3, status)
                         .str();
  auto proto = NodeView::FromProto(node);
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  auto json = Project<NodeView>(R"({"metadata":{"name":"node-1","labels":{"a":"b"}},
    "spec":{"unschedulable":true},
    "status":{"allocatable":{"cpu":"8","example.com/gpu":"4","kubernetes.io/foo":"1",
                             "vendor.io/fpga":"bad"},
              "conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"False"}]}})");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(proto->meta.Key(), json->meta.Key());
  EXPECT_EQ(proto->meta.labels, json->meta.labels);
  EXPECT_EQ(proto->allocatable_extended, json->allocatable_extended);
  EXPECT_EQ(proto->ready, json->ready);
  EXPECT_EQ(proto->unschedulable, json->unschedulable);
  EXPECT_EQ(proto->ready, NodeView::Readiness::kNotReady);
  ASSERT_EQ(proto->allocatable_extended.size(), 1u);
  EXPECT_FALSE(NodeView::FromProto(node.substr(0, node.size() - 1)).ok());
}

}  // namespace
}  // namespace dra::api
