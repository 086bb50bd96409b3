// Allocation accounting at parity with the v1.37.2 allocator: admin access,
// partitionable devices (shared counters), shared devices (consumable
// capacity), invalid pools and unusable requests, through the Inventory's
// public queries.
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "controller/inventory/Inventory.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::DeviceKey;
using inventory::Inventory;

constexpr const char* kAnyGpu = R"(device.driver == "gpu.example.com")";

DeviceKey Key(const std::string& pool, const std::string& device) {
  return {"gpu.example.com", pool, device};
}

class InventoryAccountingTest : public ::testing::Test {
 protected:
  void SetUp() override { inventory_.ApplyClass(Class("gpu", {kAnyGpu})); }

  // node-a: one 80Gi GPU published as a counter set, its whole device
  // ("gpu-0") and eight 10Gi partitions, all consuming the set's memory.
  void PublishPartitionedGpu() {
    inventory_.ApplySlice(
        CounterSlice("node-a-counters", "node-a", {Counters("gpu-0", {{"memory", 80LL << 30}})}));
    std::vector<api::Device> devices = {Partition("gpu-0", "gpu-0", 80)};
    for (int i = 0; i < 8; ++i) {
      devices.push_back(Partition("gpu-0-mig-" + std::to_string(i), "gpu-0", 10));
    }
    inventory_.ApplySlice(Slice("node-a-devices", "node-a", devices, 1, 2));
  }

  Inventory inventory_;
};

// allocateddevices.go (foreachAllocatedDevice) skips adminAccess results, so
// the device stays free for everyone else; the claim and its Pods are shown
// as admin access.
TEST_F(InventoryAccountingTest, AdminAccessLeavesTheDeviceFreeAndVisible) {
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "m")}));
  inventory_.ApplyClaim(ClaimOf("dcgm", {Result("node-b", "gpu-0", true)}, {"dcgm-exporter"}));
  auto counts = inventory_.Count("gpu", "node-b");
  EXPECT_EQ(counts.free, 1);
  EXPECT_EQ(counts.allocated, 0);
  auto info = inventory_.Find(Key("node-b", "gpu-0"));
  ASSERT_TRUE(info);
  EXPECT_TRUE(info->allocated_to.empty());
  EXPECT_EQ(info->admin_access_claims, std::vector<std::string>{"default/dcgm"});
  EXPECT_TRUE(inventory_.PodsUsing(Key("node-b", "gpu-0")).empty());
  auto admin = inventory_.PodsWithAdminAccess(Key("node-b", "gpu-0"));
  ASSERT_EQ(admin.size(), 1u);
  EXPECT_EQ(admin[0].name, "dcgm-exporter");
  bool visited = false;
  inventory_.VisitDevices([&](const inventory::DeviceVisit& d) {
    visited = true;
    EXPECT_EQ(d.claims, nullptr);
    ASSERT_NE(d.admin_access_claims, nullptr);
    EXPECT_TRUE(d.available);
  });
  EXPECT_TRUE(visited);

  // allocator_*.go (allocateOne): an adminAccess request also gets devices in use.
  inventory_.ApplyClaim(ClaimOf("train", {Result("node-b", "gpu-0")}));
  api::ResourceClaim::ExactRequest request;
  request.device_class_name = "gpu";
  EXPECT_EQ(inventory_.CountForRequest(request, "node-b").counts.free, 0);
  request.admin_access = true;
  EXPECT_EQ(inventory_.CountForRequest(request, "node-b").counts.free, 1);
}

// allocator_*.go (checkAvailableCounters): a device is free only while the
// counters left after the allocated devices of its pool cover it.
TEST_F(InventoryAccountingTest, PartitionsAndTheWholeGpuShareTheCounters) {
  PublishPartitionedGpu();
  auto pools = inventory_.Pools();
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].current_slices, 2);  // the counter slice counts as well
  EXPECT_TRUE(pools[0].complete());
  EXPECT_EQ(inventory_.Count("gpu", "node-a").total, 9);
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 9);

  inventory_.ApplyClaim(ClaimOf("small", {Result("node-a", "gpu-0-mig-3")}));
  auto counts = inventory_.Count("gpu", "node-a");
  EXPECT_EQ(counts.allocated, 1);
  EXPECT_EQ(counts.free, 7);  // the other partitions; not the whole GPU
  EXPECT_FALSE(inventory_.Find(Key("node-a", "gpu-0"))->counters_available);
  EXPECT_FALSE(inventory_.Find(Key("node-a", "gpu-0"))->available);

  inventory_.RemoveClaim(*ClaimOf("small", {}));
  inventory_.ApplyClaim(ClaimOf("whole", {Result("node-a", "gpu-0")}));
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 0);
  inventory_.RemoveClaim(*ClaimOf("whole", {}));
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 9);
}

TEST_F(InventoryAccountingTest, AllocationSeenBeforeThePartitionsStillConsumesCounters) {
  inventory_.ApplyClaim(ClaimOf("whole", {Result("node-a", "gpu-0")}));
  PublishPartitionedGpu();
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 0);
}

// During a sync a device slice often arrives before its pool's counter
// slice: the pool is incomplete then, and only a complete pool that stays
// inconsistent is warned about.
TEST_F(InventoryAccountingTest, OnlyACompleteInvalidPoolIsWarnedAbout) {
  auto log = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(50);
  log->set_level(spdlog::level::warn);
  spdlog::default_logger()->sinks().push_back(log);
  auto warnings = [&] {
    size_t n = 0;
    for (const auto& line : log->last_formatted()) {
      n += line.find("is invalid, none of its devices") != std::string::npos ? 1 : 0;
    }
    return n;
  };
  inventory_.ApplySlice(Slice("node-a-devices", "node-a", {Partition("gpu-0", "gpu-0", 80)}, 1, 2));
  EXPECT_EQ(warnings(), 0u);
  inventory_.ApplySlice(
      CounterSlice("node-a-counters", "node-a", {Counters("gpu-0", {{"memory", 80LL << 30}})}));
  EXPECT_EQ(warnings(), 0u);
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 1);

  inventory_.ApplySlice(Slice("node-b-devices", "node-b", {Partition("gpu-0", "gpu-9", 80)}));
  EXPECT_EQ(warnings(), 1u);  // complete, and consumes a counter set nobody publishes
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), log), sinks.end());
}

// pools_*.go (buildPool): an inconsistent pool is invalid and the allocator
// takes nothing from it.
TEST_F(InventoryAccountingTest, InvalidPoolsAreReportedAndNothingInThemIsFree) {
  inventory_.ApplySlice(
      Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "m"), Gpu("gpu-0", 16, "m")}));
  auto counts = inventory_.Count("gpu", "node-b");
  EXPECT_EQ(counts.total, 1);
  EXPECT_EQ(counts.invalid_pool, 1);
  EXPECT_EQ(counts.free, 0);
  EXPECT_EQ(inventory_.Pools()[0].invalid_reason, "device name gpu-0 appears twice");

  inventory_.ApplySlice(Slice("node-c", "node-c", {Partition("mig-0", "missing", 10)}));
  EXPECT_EQ(inventory_.Count("gpu", "node-c").free, 0);
  EXPECT_FALSE(inventory_.Find(Key("node-c", "mig-0"))->pool_valid);
}

// consumable_capacity.go (CmpRequestOverCapacity): an allowMultipleAllocations
// device is free while one more share fits; a result without a shareID takes
// it whole.
TEST_F(InventoryAccountingTest, SharedDeviceIsFreeWhileCapacityRemains) {
  api::Device shared = Gpu("gpu-0", 80, "m");
  shared.allow_multiple_allocations = true;
  api::CapacityPolicy policy;
  policy.default_value = kube::Quantity::FromInt64(32LL << 30);
  shared.capacity_policies.emplace_back("memory", policy);
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {shared}));
  auto share = [](const std::string& id) {
    auto result = Result("node-b", "gpu-0", false, id);
    result.consumed_capacity.emplace_back("memory", kube::Quantity::FromInt64(32LL << 30));
    return result;
  };
  inventory_.ApplyClaim(ClaimOf("a", {share("s-a")}));
  auto info = inventory_.Find(Key("node-b", "gpu-0"));
  EXPECT_TRUE(info->available);
  ASSERT_EQ(info->remaining_capacity.size(), 1u);
  EXPECT_EQ(info->remaining_capacity[0].second, kube::Quantity::FromInt64(48LL << 30));
  EXPECT_EQ(inventory_.Count("gpu", "node-b").free, 1);
  inventory_.ApplyClaim(ClaimOf("b", {share("s-b")}));  // 16Gi left < 32Gi default
  EXPECT_EQ(inventory_.Count("gpu", "node-b").free, 0);
  api::ResourceClaim::ExactRequest small;
  small.device_class_name = "gpu";
  small.capacity_requests.emplace_back("memory", kube::Quantity::FromInt64(16LL << 30));
  EXPECT_EQ(inventory_.CountForRequest(small, "node-b").counts.free, 1);

  inventory_.RemoveClaim(*ClaimOf("a", {}));
  inventory_.RemoveClaim(*ClaimOf("b", {}));
  inventory_.ApplyClaim(ClaimOf("whole", {Result("node-b", "gpu-0")}));
  EXPECT_EQ(inventory_.Count("gpu", "node-b").free, 0);
}

// An unknown allocationMode must be refused: the request gets nothing, the
// claim's allocation still counts.
TEST_F(InventoryAccountingTest, UnusableRequestGetsNothingAndItsClaimStillHoldsDevices) {
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "m")}));
  api::ResourceClaim::ExactRequest request;
  request.device_class_name = "gpu";
  request.allocation_mode = api::ResourceClaim::AllocationMode::kUnknown;
  request.invalid_reason = "allocationMode: unknown mode \"Foo\"";
  auto counts = inventory_.CountForRequest(request, "node-b");
  EXPECT_EQ(counts.counts.total, 1);
  EXPECT_EQ(counts.counts.free, 0);
  EXPECT_EQ(counts.invalid_reason, request.invalid_reason);
}

}  // namespace
}  // namespace dra::testing
