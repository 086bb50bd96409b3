#include <gtest/gtest.h>

#include "controller/alerts/AlertMapper.h"

namespace dra::alerts {
namespace {

Alert Firing(std::map<std::string, std::string> labels) {
  Alert alert;
  alert.firing = true;
  alert.labels = std::move(labels);
  alert.labels.emplace("alertname", "GPUXidCritical");
  alert.annotations = {{"summary", "Xid 79 on GPU 3"}, {"description", "fallen off the bus"}};
  alert.starts_at_ms = 1000;
  alert.fingerprint = "f1";
  return alert;
}

TEST(AlertMapperTest, UuidNamesTheGpuAndTheObject) {
  auto gpu = AlertMapper().Map(Firing({{"UUID", "GPU-5F3C"}, {"Hostname", "a"}, {"gpu", "3"}}));
  ASSERT_TRUE(gpu.ok()) << gpu.status().ToString();
  EXPECT_EQ(gpu->uuid, "GPU-5F3C");
  EXPECT_TRUE(gpu->node.empty());
  EXPECT_FALSE(gpu->index.has_value());
  EXPECT_EQ(gpu->state, api::HealthState::kUnhealthy);
  EXPECT_EQ(gpu->reason, "GPUXidCritical");
  EXPECT_EQ(gpu->message, "Xid 79 on GPU 3");
  EXPECT_EQ(gpu->at_ms, 1000);
  EXPECT_TRUE(gpu->health_name.starts_with("alert-gpu-5f3c-")) << gpu->health_name;
  // The UUID's case does not make another object.
  auto lower = AlertMapper().Map(Firing({{"UUID", "gpu-5f3c"}}));
  ASSERT_TRUE(lower.ok());
  EXPECT_EQ(lower->health_name, gpu->health_name);
  // A full UUID shows its first 12 characters; the hash tells two apart.
  auto a = AlertMapper().Map(Firing({{"UUID", "GPU-8fa1fd4b-e41e-3c20-83cc-7c3e3fd97b24"}}));
  auto b = AlertMapper().Map(Firing({{"UUID", "GPU-8fa1fd4b-e41e-3c20-83cc-7c3e3fd97b25"}}));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->health_name.starts_with("alert-gpu-8fa1fd4b-")) << a->health_name;
  EXPECT_EQ(a->health_name.size(), std::string("alert-gpu-8fa1fd4b-").size() + 12);
  EXPECT_NE(a->health_name, b->health_name);
}

TEST(AlertMapperTest, HostAndIndexNameTheGpuWithoutAUuid) {
  auto gpu = AlertMapper().Map(Firing({{"Hostname", "node-b"}, {"gpu", "7"}}));
  ASSERT_TRUE(gpu.ok()) << gpu.status().ToString();
  EXPECT_EQ(gpu->node, "node-b");
  EXPECT_EQ(gpu->index, 7);
  EXPECT_TRUE(gpu->health_name.starts_with("alert-node-b-gpu7-")) << gpu->health_name;
  auto other = AlertMapper().Map(Firing({{"Hostname", "node-b"}, {"gpu", "6"}}));
  ASSERT_TRUE(other.ok());
  EXPECT_NE(other->health_name, gpu->health_name);
}

TEST(AlertMapperTest, LabelsAreConfigurable) {
  AlertLabels labels{"gpu_uuid", "node", "index", "state"};
  auto gpu = AlertMapper(labels).Map(Firing({{"node", "n"}, {"index", "0"}, {"state", "Unknown"}}));
  ASSERT_TRUE(gpu.ok()) << gpu.status().ToString();
  EXPECT_EQ(gpu->node, "n");
  EXPECT_EQ(gpu->state, api::HealthState::kUnknown);
}

TEST(AlertMapperTest, StateLabelSetsTheState) {
  auto gpu = AlertMapper().Map(Firing({{"UUID", "GPU-1"}, {"dra_health_state", "Degraded"}}));
  ASSERT_TRUE(gpu.ok());
  EXPECT_EQ(gpu->state, api::HealthState::kDegraded);
}

TEST(AlertMapperTest, AlertsThatNameNoGpuOrNoStateAreInvalid) {
  for (const auto& labels : std::vector<std::map<std::string, std::string>>{
           {},
           {{"Hostname", "a"}},
           {{"gpu", "1"}},
           {{"Hostname", "a"}, {"gpu", "one"}},
           {{"Hostname", "a"}, {"gpu", "-1"}},
           {{"Hostname", "a"}, {"gpu", "99999999999999999999"}},
           {{"UUID", "GPU-1"}, {"dra_health_state", "Sick"}}}) {
    auto gpu = AlertMapper().Map(Firing(labels));
    ASSERT_FALSE(gpu.ok());
    EXPECT_EQ(gpu.status().code(), kube::StatusCode::kInvalidArgument);
    EXPECT_NE(gpu.status().message().find("GPUXidCritical"), std::string::npos);
  }
}

TEST(AlertMapperTest, ReasonIsCamelCaseFromTheAlertName) {
  EXPECT_EQ(AlertMapper::ReasonFrom("GPUXidCritical"), "GPUXidCritical");
  EXPECT_EQ(AlertMapper::ReasonFrom("xid 79 error"), "Xid79Error");
  EXPECT_EQ(AlertMapper::ReasonFrom("dcgm_ecc_dbe"), "DcgmEccDbe");
  EXPECT_EQ(AlertMapper::ReasonFrom("79-xid"), "Xid");
  EXPECT_EQ(AlertMapper::ReasonFrom(""), "Alert");
  EXPECT_EQ(AlertMapper::ReasonFrom("!!!"), "Alert");
  EXPECT_EQ(AlertMapper::ReasonFrom(std::string(300, 'a')).size(), 128u);
}

TEST(AlertMapperTest, MessageFallsBackToTheDescriptionAndIsCapped) {
  Alert alert = Firing({{"UUID", "GPU-1"}});
  alert.annotations.erase("summary");
  auto gpu = AlertMapper().Map(alert);
  ASSERT_TRUE(gpu.ok());
  EXPECT_EQ(gpu->message, "fallen off the bus");
  alert.annotations["summary"] = std::string(5000, 'x');
  EXPECT_EQ(AlertMapper().Map(alert)->message.size(), 1024u);
}

}  // namespace
}  // namespace dra::alerts
