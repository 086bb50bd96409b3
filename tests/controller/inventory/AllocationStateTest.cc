#include <gtest/gtest.h>

#include "controller/inventory/AllocationState.h"
#include "controller/inventory/DeviceKey.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::AllocationState;

const inventory::DeviceKeyView kGpu0{"gpu.example.com", "node-a", "gpu-0"};

// allocateddevices.go (foreachAllocatedDevice): a result with adminAccess is
// "not considered as allocated"; it stays visible as admin access.
TEST(AllocationStateTest, AdminAccessDoesNotAllocateTheDevice) {
  AllocationState state;
  state.Apply(ClaimOf("monitor", {Result("node-a", "gpu-0", /*admin_access=*/true)}, {"dcgm"}));
  EXPECT_FALSE(state.InUse(kGpu0));
  EXPECT_FALSE(state.Allocated(kGpu0));
  EXPECT_EQ(state.Holders(kGpu0), nullptr);
  ASSERT_NE(state.AdminAccessClaims(kGpu0), nullptr);
  EXPECT_EQ(AllocationState::ClaimKeys(*state.AdminAccessClaims(kGpu0)),
            std::vector<std::string>{"default/monitor"});
  EXPECT_TRUE(state.PodsUsing(kGpu0).empty());
  auto pods = state.PodsUsing(kGpu0, /*admin_access=*/true);
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].name, "dcgm");
  EXPECT_TRUE(pods[0].admin_access);

  state.Apply(ClaimOf("train", {Result("node-a", "gpu-0")}, {"trainer"}));
  EXPECT_TRUE(state.InUse(kGpu0));
  EXPECT_EQ(state.PodsUsing(kGpu0).size(), 1u);
  state.Remove(ClaimOf("monitor", {})->meta);
  EXPECT_EQ(state.AdminAccessClaims(kGpu0), nullptr);
  EXPECT_TRUE(state.InUse(kGpu0));
}

// A result with a shareID is one share (allocateddevices.go): the device is
// allocated (its counters are consumed) but not in use, and the shares'
// consumedCapacity adds up.
TEST(AllocationStateTest, SharesAddUpTheirConsumedCapacity) {
  AllocationState state;
  auto share = [](const std::string& id, int64_t gi) {
    auto result = Result("node-a", "gpu-0", false, id);
    result.consumed_capacity.emplace_back("memory", kube::Quantity::FromInt64(gi << 30));
    return result;
  };
  state.Apply(ClaimOf("a", {share("s-1", 8)}));
  state.Apply(ClaimOf("b", {share("s-2", 16)}));
  EXPECT_FALSE(state.InUse(kGpu0));
  EXPECT_TRUE(state.Allocated(kGpu0));
  auto consumed = state.Consumed(kGpu0);
  ASSERT_EQ(consumed.size(), 1u);
  EXPECT_EQ(consumed[0].second, kube::Quantity::FromInt64(24LL << 30));
  EXPECT_EQ(state.Holders(kGpu0)->size(), 2u);
  auto pools = state.Remove(ClaimOf("a", {})->meta);
  EXPECT_EQ(pools, std::vector<std::string>{"gpu.example.com/node-a"});
  EXPECT_EQ(state.Consumed(kGpu0)[0].second, kube::Quantity::FromInt64(16LL << 30));
  state.Remove(ClaimOf("b", {})->meta);
  EXPECT_EQ(state.Use(kGpu0), nullptr);
}

TEST(AllocationStateTest, AReplacedClaimForgetsWhatItHeld) {
  AllocationState state;
  state.Apply(ClaimOf("c", {Result("node-a", "gpu-0"), Result("node-a", "gpu-0")}, {"p"}));
  EXPECT_EQ(state.PodsUsing(kGpu0).size(), 1u);  // two results, one Pod
  auto pools = state.Apply(ClaimOf("c", {Result("node-b", "gpu-1")}));
  EXPECT_EQ(pools, (std::vector<std::string>{"gpu.example.com/node-a", "gpu.example.com/node-b"}));
  EXPECT_EQ(state.Use(kGpu0), nullptr);
  EXPECT_TRUE(state.InUse({"gpu.example.com", "node-b", "gpu-1"}));
}

// Devices are found by their text, whoever holds it: a key built at run time
// finds what an interned allocation result put there.
TEST(AllocationStateTest, FindsADeviceByTextHeldAnywhere) {
  AllocationState state;
  state.Apply(ClaimOf("c", {Result("node-a", "gpu-3")}, {"p"}));
  inventory::DeviceKey key{"gpu.example.com", std::string("node-") + "a",
                           "gpu-" + std::to_string(3)};
  ASSERT_NE(state.Holders(key.View()), nullptr);
  EXPECT_EQ(AllocationState::ClaimKeys(*state.Holders(key.View())),
            std::vector<std::string>{"default/c"});
  key.device = "gpu-4";
  EXPECT_EQ(state.Holders(key.View()), nullptr);
}

TEST(AllocationStateTest, VisitsClaimsByNamespaceThenName) {
  AllocationState state;
  auto in = [](const std::string& ns, const std::string& name) {
    auto claim = std::make_shared<api::ResourceClaim>(*ClaimOf(name, {}));
    claim->meta.namespace_name = ns;
    return claim;
  };
  state.Apply(in("b", "x"));
  state.Apply(in("a", "z"));
  state.Apply(in("a", "y"));
  state.Apply(in("a", "y"));  // replaced, not added
  std::vector<std::string> seen;
  state.Visit(
      [&](const api::ResourceClaim& c) { seen.push_back(AllocationState::ClaimKey(c.meta)); });
  EXPECT_EQ(seen, (std::vector<std::string>{"a/y", "a/z", "b/x"}));
  state.Remove(in("a", "z")->meta);
  seen.clear();
  state.Visit(
      [&](const api::ResourceClaim& c) { seen.push_back(AllocationState::ClaimKey(c.meta)); });
  EXPECT_EQ(seen, (std::vector<std::string>{"a/y", "b/x"}));
}

}  // namespace
}  // namespace dra::testing
