#include <gtest/gtest.h>

#include "controller/health/TargetResolver.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using health::DeviceAttributeNames;
using health::DeviceLocator;
using health::TargetResolution;
using health::TargetResolver;
using Outcome = TargetResolution::Outcome;

api::Device NamedGpu(const std::string& name, const std::string& uuid_key, const std::string& uuid,
                     int64_t index) {
  api::Device device = Gpu(name, 80, "m");
  device.attributes.emplace_back(uuid_key, api::AttributeValue(uuid));
  device.attributes.emplace_back("index", api::AttributeValue(index));
  return device;
}

api::DeviceHealth ByUuid(const std::string& uuid, const std::string& driver = "") {
  api::DeviceHealth health;
  health.uuid = uuid;
  health.driver = driver;
  return health;
}

// node-a: GPU-A0 (unqualified attribute), GPU-A1 (qualified); node-b: GPU-B0.
class TargetResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplySlice(Slice("a", "node-a",
                                {NamedGpu("gpu-0", "uuid", "GPU-A0", 0),
                                 NamedGpu("gpu-1", "gpu.example.com/uuid", "GPU-A1", 1)}));
    inventory_.ApplySlice(Slice("b", "node-b", {NamedGpu("gpu-0", "uuid", "GPU-B0", 0)}));
  }
  TargetResolver Resolver() const { return TargetResolver(DeviceLocator(inventory_, names_)); }

  inventory::Inventory inventory_;
  DeviceAttributeNames names_;
};

TEST_F(TargetResolverTest, AUuidResolvesWrittenQualifiedOrNotAndIgnoringCase) {
  auto a0 = Resolver().Resolve(ByUuid("gpu-a0"));
  ASSERT_EQ(a0.outcome, Outcome::kFound);
  EXPECT_EQ(a0.device.ToString(), "gpu.example.com/node-a/gpu-0");
  auto a1 = Resolver().Resolve(ByUuid("GPU-A1", "gpu.example.com"));
  ASSERT_EQ(a1.outcome, Outcome::kFound);
  EXPECT_EQ(a1.device.device, "gpu-1");
  EXPECT_EQ(Resolver().Resolve(ByUuid("GPU-A1", "other.example.com")).outcome, Outcome::kNotFound);
}

TEST_F(TargetResolverTest, NodeAndIndexResolveOnThatNodeOnly) {
  api::DeviceHealth health;
  health.node = "node-b";
  health.index = 0;
  auto found = Resolver().Resolve(health);
  ASSERT_EQ(found.outcome, Outcome::kFound);
  EXPECT_EQ(found.device.ToString(), "gpu.example.com/node-b/gpu-0");
  health.index = 1;
  EXPECT_EQ(Resolver().Resolve(health).outcome, Outcome::kNotFound);
}

TEST_F(TargetResolverTest, TwoDevicesWithOneUuidAreAmbiguous) {
  inventory_.ApplySlice(Slice("c", "node-c", {NamedGpu("gpu-9", "uuid", "GPU-B0", 9)}));
  auto twice = Resolver().Resolve(ByUuid("GPU-B0"));
  EXPECT_EQ(twice.outcome, Outcome::kAmbiguous);
  EXPECT_EQ(TargetResolver::Describe(ByUuid("GPU-B0"), twice), "ambiguous: 2 devices");
}

TEST_F(TargetResolverTest, AConfiguredAttributeNameIsTheOneMatched) {
  ASSERT_TRUE(names_.SetUuid("serial,other.example.com=uuid").ok());
  EXPECT_EQ(Resolver().Resolve(ByUuid("GPU-A0")).outcome, Outcome::kNotFound);
  EXPECT_FALSE(names_.SetUuid("gpu.example.com=").ok());
  EXPECT_FALSE(names_.SetIndex("a b").ok());
}

TEST_F(TargetResolverTest, AMovedGpuMovesItsTarget) {
  inventory_.RemoveSlice(*Slice("b", "node-b", {}));
  inventory_.ApplySlice(
      Slice("b2", "node-b", {NamedGpu("gpu-0", "uuid", "GPU-B0", 0)}, 1, 1, "node-b-renamed"));
  auto moved = Resolver().Resolve(ByUuid("GPU-B0"));
  ASSERT_EQ(moved.outcome, Outcome::kFound);
  EXPECT_EQ(TargetResolver::Effective(ByUuid("GPU-B0"), moved, nullptr).pool, "node-b-renamed");
}

TEST_F(TargetResolverTest, AnUnresolvedTargetKeepsOnlyAOneDeviceRuleOfOurs) {
  auto missing = Resolver().Resolve(ByUuid("GPU-GONE"));
  ASSERT_EQ(missing.outcome, Outcome::kNotFound);
  auto bare = TargetResolver::Effective(ByUuid("GPU-GONE"), missing, nullptr);
  EXPECT_TRUE(bare.driver.empty() && bare.pool.empty() && bare.device.empty());

  api::DeviceTaintRule rule;
  rule.selector = api::DeviceTaintRule::Selector{"gpu.example.com", "node-a", "gpu-0"};
  auto kept = TargetResolver::Effective(ByUuid("GPU-GONE"), missing, &rule);
  EXPECT_EQ(kept.pool, "node-a");
  EXPECT_EQ(kept.device, "gpu-0");
  rule.selector = api::DeviceTaintRule::Selector{"gpu.example.com", "", ""};
  EXPECT_TRUE(TargetResolver::Effective(ByUuid("GPU-GONE"), missing, &rule).pool.empty());
}

}  // namespace
}  // namespace dra::testing
