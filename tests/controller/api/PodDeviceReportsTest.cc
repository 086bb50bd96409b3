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
// after its resource, and one of each container-status list.
constexpr const char* kPodJson = R"({"metadata":{"name":"p","namespace":"ml","uid":"u-1"},
 "status":{"phase":"Running",
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
  ProtoWriter status;
  status.Bytes(1, "Running").Message(8, main).Message(10, setup).Message(13, debug);
  return ProtoWriter()
      .Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ml").Bytes(5, "u-1"))
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
  EXPECT_EQ(valid, 1) << "only the cut after metadata leaves a whole message";
}

}  // namespace
}  // namespace dra::api
