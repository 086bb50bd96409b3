#include <gtest/gtest.h>

#include <string>

#include "controller/api/PodProtoDecoder.h"
#include "tests/controller/api/PodViewEquality.h"
#include "tests/controller/api/ProjectionTestUtil.h"
#include "tests/support/ProtoWriter.h"

namespace dra::api {
namespace {

using kube::testing::ProtoWriter;
using testing::ExpectSamePodView;
using testing::Project;

// One Pod written twice, as JSON and as the protobuf kube-apiserver sends
// (field numbers from core/v1/generated.proto): both projections must agree.
constexpr const char* kPodJson = R"({"metadata":{"name":"p","namespace":"ml","uid":"u-1",
  "resourceVersion":"12","generation":2,"creationTimestamp":"1970-01-01T00:01:40Z",
  "deletionTimestamp":"1970-01-01T00:02:00Z","labels":{"app":"x"}},
 "spec":{"nodeName":"node-3",
  "containers":[{"name":"main","resources":{
     "requests":{"cpu":"1","example.com/gpu":"2","example.com/nic":"bad"},
     "limits":{"example.com/gpu":"2","vendor.io/fpga":"1","memory":"1Gi"}}}],
  "initContainers":[{"name":"proxy","restartPolicy":"Always",
     "resources":{"limits":{"example.com/gpu":"1"}}}]},
 "status":{"phase":"Pending","conditions":[
   {"type":"Ready","status":"False"},
   {"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/3 nodes"}],
  "extendedResourceClaimStatus":{"resourceClaimName":"p-extended-resources-abc",
   "requestMappings":[{"containerName":"main","resourceName":"example.com/gpu",
     "requestName":"container-1-request-1"}]}}})";

ProtoWriter ResourceMap(uint32_t field,
                        std::initializer_list<std::pair<const char*, const char*>> entries,
                        ProtoWriter into) {
  for (const auto& [name, value] : entries) {
    into.Message(field, ProtoWriter().Bytes(1, name).Message(2, ProtoWriter().Bytes(1, value)));
  }
  return into;
}

std::string PodProto() {
  ProtoWriter meta;
  meta.Bytes(1, "p")
      .Bytes(3, "ml")
      .Bytes(5, "u-1")
      .Bytes(6, "12")
      .Varint(7, 2)
      .Message(8, ProtoWriter().Varint(1, 100))
      .Message(9, ProtoWriter().Varint(1, 120))
      .StringEntry(11, "app", "x");
  ProtoWriter main_resources = ResourceMap(
      1, {{"example.com/gpu", "2"}, {"memory", "1Gi"}, {"vendor.io/fpga", "1"}}, ProtoWriter());
  main_resources = ResourceMap(
      2, {{"cpu", "1"}, {"example.com/gpu", "2"}, {"example.com/nic", "bad"}}, main_resources);
  ProtoWriter spec;
  // Fields in the order Go writes them (ascending numbers): containers (2)
  // come before initContainers (20); the view still lists init ones first.
  spec.Message(2, ProtoWriter().Bytes(1, "main").Message(8, main_resources))
      .Bytes(10, "node-3")
      .Message(20, ProtoWriter()
                       .Bytes(1, "proxy")
                       .Message(8, ResourceMap(1, {{"example.com/gpu", "1"}}, ProtoWriter()))
                       .Bytes(24, "Always"));
  ProtoWriter status;
  status.Bytes(1, "Pending")
      .Message(2, ProtoWriter().Bytes(1, "Ready").Bytes(2, "False"))
      .Message(2, ProtoWriter()
                      .Bytes(1, "PodScheduled")
                      .Bytes(2, "False")
                      .Message(4, ProtoWriter().Varint(1, 100))
                      .Bytes(5, "Unschedulable")
                      .Bytes(6, "0/3 nodes"))
      .Message(18, ProtoWriter()
                       .Message(1, ProtoWriter()
                                       .Bytes(1, "main")
                                       .Bytes(2, "example.com/gpu")
                                       .Bytes(3, "container-1-request-1"))
                       .Bytes(2, "p-extended-resources-abc"));
  return ProtoWriter().Message(1, meta).Message(2, spec).Message(3, status).str();
}

TEST(PodProtoDecoderTest, AgreesWithTheJsonProjection) {
  auto json = Project<PodView>(kPodJson);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto proto = PodView::FromProto(PodProto());
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  ExpectSamePodView(*json, *proto);
  // And the agreement is about something: the fields are really there.
  EXPECT_TRUE(proto->meta.labels.empty());
  EXPECT_TRUE(proto->meta.deleting);
  ASSERT_EQ(proto->containers.size(), 2u);
  EXPECT_TRUE(proto->containers[0].is_sidecar);
  ASSERT_EQ(proto->containers[1].resources.size(), 2u);
  EXPECT_EQ(proto->containers[1].resources[0].name, "example.com/gpu");
  EXPECT_EQ(proto->containers[1].resources[0].request_index, 1);
  EXPECT_EQ(proto->containers[1].resources[1].name, "vendor.io/fpga");
  EXPECT_FALSE(proto->containers[1].resources[1].has_request);
  ASSERT_NE(proto->scheduled, nullptr);
  EXPECT_EQ(proto->scheduled->reason, "Unschedulable");
}

TEST(PodProtoDecoderTest, AScheduledPodKeepsNoCondition) {
  std::string pod = ProtoWriter()
                        .Message(1, ProtoWriter().Bytes(1, "p"))
                        .Message(3, ProtoWriter().Message(
                                        2, ProtoWriter().Bytes(1, "PodScheduled").Bytes(2, "True")))
                        .str();
  auto view = PodView::FromProto(pod);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  EXPECT_EQ(view->scheduled, nullptr);
  EXPECT_TRUE(view->containers.empty());
  EXPECT_FALSE(view->RequestsExtendedResources());
}

// Only a cut between the top-level fields (after metadata, after spec)
// leaves a valid message; every other is an error, never a crash.
TEST(PodProtoDecoderTest, TruncationsAreErrorsNotCrashes) {
  std::string pod = PodProto();
  int valid = 0;
  for (size_t cut = 0; cut < pod.size(); ++cut) {
    if (PodView::FromProto(std::string_view(pod).substr(0, cut)).ok()) ++valid;
  }
  EXPECT_EQ(valid, 2);
}

}  // namespace
}  // namespace dra::api
