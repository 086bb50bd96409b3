#include <gtest/gtest.h>

#include <string>

#include "controller/api/PodView.h"
#include "tests/controller/api/PodViewEquality.h"
#include "tests/controller/api/ProjectionTestUtil.h"
#include "tests/support/ProtoWriter.h"

namespace dra::api {
namespace {

using kube::testing::ProtoWriter;
using testing::ExpectSamePodView;
using testing::Project;
using Health = PodView::ReportedHealth;

// What the kubelet writes (v1.37 ResourceHealthStatus): DRA entries named
// "claim:<claim>/<request>" or "claim:<claim>", a device-plugin entry named
// after its resource, and one of each container-status list. The claims the
// entries name: "gpu" a ResourceClaim of its own, "nic" one made from a
// template (its name in the status; a status entry for "gpu" does not
// override the spec's).
constexpr const char* kPodJson = R"({"metadata":{"name":"p","namespace":"ml","uid":"u-1"},
 "spec":{"resourceClaims":[{"name":"gpu","resourceClaimName":"train-gpu"},
   {"name":"nic","resourceClaimTemplateName":"nic-template"}]},
 "status":{"phase":"Running",
  "resourceClaimStatuses":[{"name":"nic","resourceClaimName":"p-nic-x7"},
    {"name":"gpu","resourceClaimName":"not-this"},{"name":"unused"}],
  "containerStatuses":[{"name":"main","ready":true,"allocatedResourcesStatus":[
     {"name":"claim:gpu/one","resources":[
        {"resourceID":"gpu.example.com/node-a/gpu-0","health":"Unhealthy","message":"Xid 79"},
        {"resourceID":"gpu.example.com/node-a/gpu-1","health":"Healthy"}]},
     {"name":"example.com/fpga","resources":[{"resourceID":"fpga-7","health":"Unhealthy"}]}]}],
  "initContainerStatuses":[{"name":"setup","allocatedResourcesStatus":[
     {"name":"claim:nic","resources":[{"resourceID":"nic.example.com/pool/a/nic-3",
        "health":"Unknown"}]}]}],
  "ephemeralContainerStatuses":[{"name":"debug","allocatedResourcesStatus":[
     {"name":"claim:gpu/one","resources":[{"resourceID":"gpu.example.com/node-a/gpu-0",
        "health":"Bogus"}]}]}]}})";

ProtoWriter ResourceHealth(const char* id, const char* health) {
  return ProtoWriter().Bytes(1, id).Bytes(2, health);
}

std::string PodProto() {
  ProtoWriter main;
  main.Bytes(1, "main")
      .Varint(4, 1)
      .Message(
          14,
          ProtoWriter()
              .Bytes(1, "claim:gpu/one")
              .Message(
                  2, ResourceHealth("gpu.example.com/node-a/gpu-0", "Unhealthy").Bytes(6, "Xid 79"))
              .Message(2, ResourceHealth("gpu.example.com/node-a/gpu-1", "Healthy")))
      .Message(14, ProtoWriter()
                       .Bytes(1, "example.com/fpga")
                       .Message(2, ResourceHealth("fpga-7", "Unhealthy")));
  ProtoWriter setup;
  setup.Bytes(1, "setup")
      .Message(14, ProtoWriter()
                       .Bytes(1, "claim:nic")
                       .Message(2, ResourceHealth("nic.example.com/pool/a/nic-3", "Unknown")));
  ProtoWriter debug;
  debug.Bytes(1, "debug")
      .Message(14, ProtoWriter()
                       .Bytes(1, "claim:gpu/one")
                       .Message(2, ResourceHealth("gpu.example.com/node-a/gpu-0", "Bogus")));
  // Ascending field numbers, as Go writes them: containerStatuses (8) before
  // initContainerStatuses (10) before ephemeralContainerStatuses (13).
  ProtoWriter spec;  // resourceClaims (39): name 1, resourceClaimName 3, template 4
  spec.Message(39, ProtoWriter().Bytes(1, "gpu").Bytes(3, "train-gpu"))
      .Message(39, ProtoWriter().Bytes(1, "nic").Bytes(4, "nic-template"));
  ProtoWriter status;  // resourceClaimStatuses (15): name 1, resourceClaimName 2
  status.Bytes(1, "Running")
      .Message(8, main)
      .Message(10, setup)
      .Message(13, debug)
      .Message(15, ProtoWriter().Bytes(1, "nic").Bytes(2, "p-nic-x7"))
      .Message(15, ProtoWriter().Bytes(1, "gpu").Bytes(2, "not-this"))
      .Message(15, ProtoWriter().Bytes(1, "unused"));
  return ProtoWriter()
      .Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ml").Bytes(5, "u-1"))
      .Message(2, spec)
      .Message(3, status)
      .str();
}

void ExpectReports(const PodView& pod) {
  ASSERT_EQ(pod.device_reports.size(), 4u);
  const auto& r = pod.device_reports;
  EXPECT_EQ(r[0].container, "setup");
  EXPECT_EQ(r[0].claim, "nic");
  EXPECT_EQ(r[0].resource_id, "nic.example.com/pool/a/nic-3");
  EXPECT_EQ(r[0].health, Health::kUnknown);
  EXPECT_EQ(r[1].container, "main");
  EXPECT_EQ(r[1].claim, "gpu/one");
  EXPECT_EQ(r[1].resource_id, "gpu.example.com/node-a/gpu-0");
  EXPECT_EQ(r[1].health, Health::kUnhealthy);
  EXPECT_EQ(r[2].resource_id, "gpu.example.com/node-a/gpu-1");
  EXPECT_EQ(r[2].health, Health::kHealthy);
  EXPECT_EQ(r[3].container, "debug");
  EXPECT_EQ(r[3].health, Health::kUnknown) << "an unknown health word reads as Unknown";
  EXPECT_TRUE(pod.ReportsDeviceHealth());
  EXPECT_FALSE(pod.RequestsExtendedResources());
  EXPECT_EQ(pod.claim_refs.size(), 2u);
  EXPECT_EQ(pod.ResourceClaimOf("gpu"), "train-gpu");
  EXPECT_EQ(pod.ResourceClaimOf("nic"), "p-nic-x7");
  EXPECT_EQ(pod.ResourceClaimOf("unused"), "");
}

TEST(PodDeviceReportsTest, JsonKeepsOnlyDraEntriesInitFirst) {
  auto pod = Project<PodView>(kPodJson);
  ASSERT_TRUE(pod.ok()) << pod.status().ToString();
  ExpectReports(*pod);
}

TEST(PodDeviceReportsTest, ProtobufAgreesWithJson) {
  auto json = Project<PodView>(kPodJson);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto proto = PodView::FromProto(PodProto());
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  ExpectReports(*proto);
  ExpectSamePodView(*json, *proto);
}

TEST(PodDeviceReportsTest, MissingOrWrongTypedFieldsReportNothing) {
  auto pod = Project<PodView>(R"({"metadata":{"name":"p"},"status":{"containerStatuses":[
      {"name":"m","allocatedResourcesStatus":[{"name":"claim:c","resources":[{"health":"Unhealthy"}]},
      {"name":"claim:d","resources":"x"},{"resources":[{"resourceID":"a/b/c"}]}]},
      {"name":"n","allocatedResourcesStatus":7}]}})");
  ASSERT_TRUE(pod.ok()) << pod.status().ToString();
  EXPECT_TRUE(pod->device_reports.empty());
  EXPECT_FALSE(pod->ReportsDeviceHealth());
}

TEST(PodDeviceReportsTest, TruncatedProtobufIsAnErrorNotACrash) {
  std::string pod = PodProto();
  int valid = 0;
  for (size_t cut = 0; cut < pod.size(); ++cut) {
    if (PodView::FromProto(std::string_view(pod).substr(0, cut)).ok()) ++valid;
  }
  EXPECT_EQ(valid, 2) << "only the cuts after metadata and after spec leave a whole message";
}

// The claim references serve only to trace reports: a Pod without one keeps none.
TEST(PodDeviceReportsTest, ClaimReferencesAreKeptOnlyWithReports) {
  auto pod = Project<PodView>(R"({"metadata":{"name":"p","namespace":"ml"},
    "spec":{"resourceClaims":[{"name":"gpu","resourceClaimName":"train-gpu"}]},
    "status":{"resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"x"}]}})");
  ASSERT_TRUE(pod.ok()) << pod.status().ToString();
  EXPECT_TRUE(pod->claim_refs.empty());
  std::string proto = ProtoWriter()
                          .Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ml"))
                          .Message(2, ProtoWriter().Message(
                                          39, ProtoWriter().Bytes(1, "gpu").Bytes(3, "train-gpu")))
                          .str();
  auto from_proto = PodView::FromProto(proto);
  ASSERT_TRUE(from_proto.ok()) << from_proto.status().ToString();
  EXPECT_TRUE(from_proto->claim_refs.empty());
}

}  // namespace
}  // namespace dra::api
