#include <gtest/gtest.h>

#include "controller/health/EvictionTolerance.h"
#include "controller/health/TaintRuleBuilder.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::health {
namespace {

using api::DeviceToleration;

// The taint our rule puts on a device going NoExecute.
api::DeviceTaint NoExecute() {
  return api::DeviceTaint{kTaintKey, "XidError", api::TaintEffect::kNoExecute, "", 0};
}

class EvictionToleranceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<api::Device> gpus;
    for (int i = 0; i < 5; ++i) gpus.push_back(testing::Gpu("gpu-" + std::to_string(i), 80, "m"));
    inventory_.ApplySlice(testing::Slice("node-a-slice", "node-a", gpus));
  }

  // Pod `pod` holds gpu-`index` through a claim with `tolerations`.
  void Hold(const std::string& pod, int index, std::vector<DeviceToleration> tolerations) {
    auto claim = std::make_shared<api::ResourceClaim>(
        *testing::Claim("ns", pod + "-claim", {{"node-a", "gpu-" + std::to_string(index)}}, {pod}));
    claim->results[0].tolerations = tolerations;
    inventory_.ApplyClaim(claim);
  }

  std::vector<std::string> Evicted() {
    api::DeviceHealth pool;
    pool.driver = "gpu.example.com";
    pool.pool = "node-a";
    ScopeView scope = DeviceScope::Resolve(inventory_, pool);
    std::vector<std::string> names;
    for (const auto& pod : EvictionTolerance::Evicted(inventory_, scope, NoExecute())) {
      names.push_back(pod.name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  inventory::Inventory inventory_;
};

// As v1.37.2's device-taint eviction controller counts tolerations: only one
// with effect NoExecute keeps the Pod, and only without tolerationSeconds.
TEST_F(EvictionToleranceTest, OnlyANoExecuteTolerationWithoutSecondsKeepsThePod) {
  Hold("plain", 0, {});
  Hold("no-effect", 1, {DeviceToleration::Make(kTaintKey, "", "Exists", "", std::nullopt)});
  Hold("no-execute", 2,
       {DeviceToleration::Make(kTaintKey, "", "Exists", "NoExecute", std::nullopt)});
  Hold("for-a-minute", 3, {DeviceToleration::Make(kTaintKey, "", "Exists", "NoExecute", 60)});
  Hold("other-key", 4, {DeviceToleration::Make("other", "", "Exists", "NoExecute", std::nullopt)});
  EXPECT_EQ(Evicted(),
            (std::vector<std::string>{"for-a-minute", "no-effect", "other-key", "plain"}));
}

TEST_F(EvictionToleranceTest, AnEqualTolerationMustNameTheValue) {
  Hold("right-value", 0,
       {DeviceToleration::Make(kTaintKey, "XidError", "Equal", "NoExecute", std::nullopt)});
  Hold("wrong-value", 1,
       {DeviceToleration::Make(kTaintKey, "Other", "Equal", "NoExecute", std::nullopt)});
  EXPECT_EQ(Evicted(), (std::vector<std::string>{"wrong-value"}));
}

}  // namespace
}  // namespace dra::health
