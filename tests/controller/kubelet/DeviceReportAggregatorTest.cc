#include <gtest/gtest.h>

#include "controller/kubelet/DeviceReportAggregator.h"
#include "tests/controller/kubelet/KubeletTestPods.h"

namespace dra::kubelet {
namespace {

using Health = api::PodView::ReportedHealth;
using testing::PodReporting;
const inventory::DeviceKey kGpu0{"gpu.example.com", "node-a", "gpu-0"};
const char* kGpu0Id = "gpu.example.com/node-a/gpu-0";

TEST(DeviceReportAggregatorTest, ResourceIdsOfTheKubeletFormOnly) {
  auto device = DeviceReportAggregator::DeviceOf("gpu.example.com/pool/with/slash/gpu-3");
  ASSERT_TRUE(device.has_value());
  EXPECT_EQ(device->driver, "gpu.example.com");
  EXPECT_EQ(device->pool, "pool/with/slash");
  EXPECT_EQ(device->device, "gpu-3");
  EXPECT_FALSE(DeviceReportAggregator::DeviceOf("vendor.com/gpu=0")) << "a CDI device ID";
  EXPECT_FALSE(DeviceReportAggregator::DeviceOf("gpu.example.com/gpu=0/x"));
  EXPECT_FALSE(DeviceReportAggregator::DeviceOf("gpu-0"));
  EXPECT_FALSE(DeviceReportAggregator::DeviceOf(""));
}

TEST(DeviceReportAggregatorTest, UnhealthyOutranksUnknownOutranksHealthy) {
  auto healthy = PodReporting("a", {{kGpu0Id, Health::kHealthy}});
  auto unknown = PodReporting("b", {{kGpu0Id, Health::kUnknown}});
  auto unhealthy = PodReporting("c", {{kGpu0Id, Health::kUnhealthy}});
  EXPECT_EQ(DeviceReportAggregator::Aggregate({healthy}, kGpu0).state, api::HealthState::kHealthy);
  auto one_unknown = DeviceReportAggregator::Aggregate({healthy, unknown}, kGpu0);
  EXPECT_EQ(one_unknown.state, api::HealthState::kUnknown);
  EXPECT_EQ(one_unknown.reporters, std::vector<std::string>{"ml/b container main claim gpu/one"});
  auto all = DeviceReportAggregator::Aggregate({unknown, unhealthy, healthy}, kGpu0);
  EXPECT_EQ(all.state, api::HealthState::kUnhealthy);
  EXPECT_EQ(all.reporters, std::vector<std::string>{"ml/c container main claim gpu/one"})
      << "only the reports that make the state are named";
}

TEST(DeviceReportAggregatorTest, OtherDevicesAndTerminatedPodsDoNotCount) {
  auto other = PodReporting("a", {{"gpu.example.com/node-a/gpu-1", Health::kUnhealthy}});
  auto done = PodReporting("b", {{kGpu0Id, Health::kUnhealthy}}, "Succeeded");
  auto failed = PodReporting("c", {{kGpu0Id, Health::kUnknown}}, "Failed");
  auto verdict = DeviceReportAggregator::Aggregate({other, done, failed}, kGpu0);
  EXPECT_FALSE(verdict.state.has_value()) << "no report is no evidence, not a Healthy one";
  EXPECT_TRUE(verdict.reporters.empty());
  EXPECT_FALSE(DeviceReportAggregator::Aggregate({}, kGpu0).state.has_value());
}

TEST(DeviceReportAggregatorTest, KeysOfAPodAreItsParseableDevicesOnce) {
  auto pod = PodReporting("a", {{kGpu0Id, Health::kUnhealthy},
                                {kGpu0Id, Health::kHealthy},
                                {"vendor.com/gpu=0", Health::kUnhealthy},
                                {"gpu.example.com/node-a/gpu-1", Health::kHealthy}});
  EXPECT_EQ(DeviceReportAggregator::DeviceKeysOf(*pod),
            (std::vector<std::string>{kGpu0Id, "gpu.example.com/node-a/gpu-1"}));
}

}  // namespace
}  // namespace dra::kubelet
