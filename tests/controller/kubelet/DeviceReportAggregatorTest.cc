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
  EXPECT_EQ(DeviceReportAggregator().Aggregate({healthy}, kGpu0).state, api::HealthState::kHealthy);
  auto one_unknown = DeviceReportAggregator().Aggregate({healthy, unknown}, kGpu0);
  EXPECT_EQ(one_unknown.state, api::HealthState::kUnknown);
  EXPECT_EQ(one_unknown.reporters, std::vector<std::string>{"ml/b container main claim gpu/one"});
  auto all = DeviceReportAggregator().Aggregate({unknown, unhealthy, healthy}, kGpu0);
  EXPECT_EQ(all.state, api::HealthState::kUnhealthy);
  EXPECT_EQ(all.reporters, std::vector<std::string>{"ml/c container main claim gpu/one"})
      << "only the reports that make the state are named";
}

TEST(DeviceReportAggregatorTest, OtherDevicesAndTerminatedPodsDoNotCount) {
  auto other = PodReporting("a", {{"gpu.example.com/node-a/gpu-1", Health::kUnhealthy}});
  auto done = PodReporting("b", {{kGpu0Id, Health::kUnhealthy}}, "Succeeded");
  auto failed = PodReporting("c", {{kGpu0Id, Health::kUnknown}}, "Failed");
  auto verdict = DeviceReportAggregator().Aggregate({other, done, failed}, kGpu0);
  EXPECT_FALSE(verdict.state.has_value()) << "no report is no evidence, not a Healthy one";
  EXPECT_TRUE(verdict.reporters.empty());
  EXPECT_FALSE(DeviceReportAggregator().Aggregate({}, kGpu0).state.has_value());
}

TEST(DeviceReportAggregatorTest, KeysOfAPodAreItsParseableDevicesOnceWithoutClaims) {
  auto pod = PodReporting("a", {{kGpu0Id, Health::kUnhealthy},
                                {kGpu0Id, Health::kHealthy},
                                {"vendor.com/gpu=0", Health::kUnhealthy},
                                {"gpu.example.com/node-a/gpu-1", Health::kHealthy}});
  EXPECT_EQ(DeviceReportAggregator().DeviceKeysOf(*pod),
            (std::vector<std::string>{kGpu0Id, "gpu.example.com/node-a/gpu-1"}));
}

// Claim "ml/train-gpu", allocated `devices` of node-a as (request, device).
std::shared_ptr<const api::ResourceClaim> Claim(
    const std::vector<std::pair<std::string, std::string>>& devices, bool allocated = true) {
  api::ResourceClaim claim;
  claim.meta.namespace_name = "ml";
  claim.meta.name = "train-gpu";
  claim.allocated = allocated;
  for (const auto& [request, device] : devices) {
    api::ResourceClaim::AllocationResult result;
    result.request = kube::InternedString(request);
    result.driver = kube::InternedString("gpu.example.com");
    result.pool = kube::InternedString("node-a");
    result.device = kube::InternedString(device);
    claim.results.push_back(std::move(result));
  }
  return std::make_shared<const api::ResourceClaim>(std::move(claim));
}

// A Pod whose claim "gpu" is the ResourceClaim train-gpu, reporting by CDI
// device ID for "gpu/one", as the kubelet does when the driver gives one.
std::shared_ptr<const api::PodView> CdiReporting(const std::string& name, Health health) {
  auto pod = std::make_shared<api::PodView>(
      *PodReporting(name, {{"gpu.example.com/test=claim-uid-one", health}}));
  pod->claim_refs.push_back({"gpu", "train-gpu"});
  return pod;
}

DeviceReportAggregator::ClaimLookup Lookup(std::shared_ptr<const api::ResourceClaim> claim) {
  return [claim](std::string_view ns, std::string_view name) {
    bool match = claim && ns == claim->meta.namespace_name.view() && name == claim->meta.name;
    return match ? claim : nullptr;
  };
}

TEST(DeviceReportAggregatorTest, ACdiDeviceIdIsTracedThroughThePodsClaimAndRequest) {
  const inventory::DeviceKey gpu1{"gpu.example.com", "node-a", "gpu-1"};
  DeviceReportAggregator aggregator(Lookup(Claim({{"one", "gpu-0"}, {"two", "gpu-1"}})));
  auto sick = CdiReporting("a", Health::kUnhealthy);
  EXPECT_EQ(aggregator.DeviceKeysOf(*sick), std::vector<std::string>{kGpu0Id});
  auto verdict = aggregator.Aggregate({sick}, kGpu0);
  EXPECT_EQ(verdict.state, api::HealthState::kUnhealthy);
  EXPECT_EQ(verdict.reporters, std::vector<std::string>{"ml/a container main claim gpu/one"});
  EXPECT_FALSE(aggregator.Aggregate({sick}, gpu1).state.has_value()) << "request two's device";
  auto well = CdiReporting("b", Health::kHealthy);
  EXPECT_EQ(aggregator.Aggregate({well}, kGpu0).state, api::HealthState::kHealthy)
      << "one device: the report is exactly that device's";

  DeviceReportAggregator subrequest(Lookup(Claim({{"one/large", "gpu-0"}, {"ones", "gpu-1"}})));
  EXPECT_EQ(subrequest.DeviceKeysOf(*sick), std::vector<std::string>{kGpu0Id})
      << "a subrequest's result is its request's; another request sharing the prefix is not";
}

TEST(DeviceReportAggregatorTest, ACdiReportOfSeveralDevicesClosesEachAndReopensNone) {
  const inventory::DeviceKey gpu1{"gpu.example.com", "node-a", "gpu-1"};
  DeviceReportAggregator aggregator(Lookup(Claim({{"one", "gpu-0"}, {"one", "gpu-1"}})));
  auto sick = CdiReporting("a", Health::kUnhealthy);
  EXPECT_EQ(aggregator.DeviceKeysOf(*sick),
            (std::vector<std::string>{kGpu0Id, "gpu.example.com/node-a/gpu-1"}));
  for (const auto& device : {kGpu0, gpu1}) {
    auto verdict = aggregator.Aggregate({sick}, device);
    EXPECT_EQ(verdict.state, api::HealthState::kUnhealthy) << device.ToString();
    EXPECT_EQ(verdict.reporters,
              std::vector<std::string>{"ml/a container main claim gpu/one (one of its 2 devices)"});
  }
  EXPECT_EQ(aggregator.Aggregate({CdiReporting("u", Health::kUnknown)}, gpu1).state,
            api::HealthState::kUnknown);
  auto well = CdiReporting("b", Health::kHealthy);
  EXPECT_FALSE(aggregator.Aggregate({well}, kGpu0).state.has_value())
      << "the kubelet shows one entry per CDI device ID: a Healthy one may hide a sick sibling";
  EXPECT_EQ(aggregator.Aggregate({well, sick}, gpu1).state, api::HealthState::kUnhealthy);
}

TEST(DeviceReportAggregatorTest, ACdiReportWithoutAKnownAllocatedClaimNamesNothing) {
  auto sick = CdiReporting("a", Health::kUnhealthy);
  EXPECT_TRUE(DeviceReportAggregator().DeviceKeysOf(*sick).empty()) << "no lookup";
  EXPECT_TRUE(DeviceReportAggregator(Lookup(nullptr)).DeviceKeysOf(*sick).empty())
      << "claim not known (yet)";
  EXPECT_TRUE(
      DeviceReportAggregator(Lookup(Claim({{"one", "gpu-0"}}, false))).DeviceKeysOf(*sick).empty())
      << "claim not allocated";
  auto no_ref = PodReporting("c", {{"gpu.example.com/test=claim-uid-one", Health::kUnhealthy}});
  EXPECT_TRUE(
      DeviceReportAggregator(Lookup(Claim({{"one", "gpu-0"}}))).DeviceKeysOf(*no_ref).empty())
      << "the Pod names no ResourceClaim for claim gpu";
}

}  // namespace
}  // namespace dra::kubelet
