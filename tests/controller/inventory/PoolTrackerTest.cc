#include <gtest/gtest.h>

#include "controller/inventory/PoolTracker.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::PoolTracker;

std::vector<std::string> Names(const std::vector<PoolTracker::SlicePtr>& slices) {
  std::vector<std::string> names;
  for (const auto& s : slices) names.push_back(s->meta.name);
  return names;
}

TEST(PoolTrackerTest, OnlyTheNewestGenerationIsCurrent) {
  PoolTracker pools;
  pools.Apply(Slice("a-1", "node-a", {}, 1, 2));
  pools.Apply(Slice("a-2", "node-a", {}, 1, 2));
  EXPECT_EQ(Names(pools.CurrentSlices("gpu.example.com/node-a")),
            (std::vector<std::string>{"a-1", "a-2"}));
  EXPECT_TRUE(pools.Find("gpu.example.com/node-a")->complete());

  pools.Apply(Slice("a-3", "node-a", {}, 2, 2));
  const auto* pool = pools.Find("gpu.example.com/node-a");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->generation, 2);
  EXPECT_EQ(pool->current_slices, 1);
  EXPECT_EQ(pool->stale_slices, 2);
  EXPECT_FALSE(pool->complete());
  EXPECT_EQ(Names(pools.CurrentSlices("gpu.example.com/node-a")),
            (std::vector<std::string>{"a-3"}));
}

TEST(PoolTrackerTest, ReportsThePoolsAChangeTouches) {
  PoolTracker pools;
  EXPECT_EQ(pools.Apply(Slice("s", "node-a", {})),
            (std::vector<std::string>{"gpu.example.com/node-a"}));
  EXPECT_EQ(pools.Apply(Slice("s", "node-a", {}, 1, 1, "other")),
            (std::vector<std::string>{"gpu.example.com/node-a", "gpu.example.com/other"}));
  EXPECT_EQ(pools.Find("gpu.example.com/node-a"), nullptr);
  EXPECT_EQ(pools.Remove("s"), (std::vector<std::string>{"gpu.example.com/other"}));
  EXPECT_TRUE(pools.Pools().empty());
  EXPECT_TRUE(pools.Remove("s").empty());
  EXPECT_TRUE(pools.CurrentSlices("gpu.example.com/other").empty());
}

TEST(PoolTrackerTest, RemovingTheNewestGenerationFallsBackToTheOlder) {
  PoolTracker pools;
  pools.Apply(Slice("old", "node-a", {}, 3));
  pools.Apply(Slice("new", "node-a", {}, 4));
  pools.Remove("new");
  EXPECT_EQ(pools.Find("gpu.example.com/node-a")->generation, 3);
  EXPECT_EQ(Names(pools.CurrentSlices("gpu.example.com/node-a")),
            (std::vector<std::string>{"old"}));
}

// pools_*.go (buildPool, validateDeviceNames): a device name published twice
// makes the whole pool invalid, not "keep the first".
TEST(PoolTrackerTest, DuplicateDeviceNamesMakeThePoolInvalid) {
  PoolTracker pools;
  pools.Apply(Slice("a-1", "node-a", {Gpu("gpu-0", 80, "m")}, 1, 2));
  EXPECT_TRUE(pools.Find("gpu.example.com/node-a")->valid());
  pools.Apply(Slice("a-2", "node-a", {Gpu("gpu-0", 80, "m")}, 1, 2));
  const auto* pool = pools.Find("gpu.example.com/node-a");
  EXPECT_FALSE(pool->valid());
  EXPECT_EQ(pool->invalid_reason, "device name gpu-0 appears twice");
  pools.Apply(Slice("a-2", "node-a", {Gpu("gpu-1", 80, "m")}, 1, 2));
  EXPECT_TRUE(pools.Find("gpu.example.com/node-a")->valid());
}

// pools_*.go (getAndValidateCounterSets, validateDeviceCounterConsumption):
// duplicate counter set names, and devices consuming a set or counter the
// pool does not define, make the pool invalid. The counter slice counts
// towards resourceSliceCount.
TEST(PoolTrackerTest, InconsistentCounterSetsMakeThePoolInvalid) {
  const std::string id = "gpu.example.com/node-a";
  PoolTracker pools;
  pools.Apply(CounterSlice("a-counters", "node-a", {Counters("gpu-0", {{"memory", 80}})}));
  EXPECT_FALSE(pools.Find(id)->complete());
  pools.Apply(Slice("a-devices", "node-a", {Partition("mig-0", "gpu-0", 10)}, 1, 2));
  EXPECT_TRUE(pools.Find(id)->complete());
  EXPECT_TRUE(pools.Find(id)->valid()) << pools.Find(id)->invalid_reason;
  ASSERT_EQ(pools.Find(id)->counter_sets.size(), 1u);

  pools.Apply(Slice("a-devices", "node-a", {Partition("mig-0", "gpu-9", 10)}, 1, 2));
  EXPECT_EQ(pools.Find(id)->invalid_reason, "device mig-0 consumes unknown counter set gpu-9");

  api::Device wrong_counter = Partition("mig-0", "gpu-0", 10);
  wrong_counter.consumes_counters[0].counters[0].first = "sm";
  pools.Apply(Slice("a-devices", "node-a", {wrong_counter}, 1, 2));
  EXPECT_EQ(pools.Find(id)->invalid_reason,
            "device mig-0 consumes counter sm, which counter set gpu-0 does not define");

  pools.Apply(Slice("a-devices", "node-a", {Partition("mig-0", "gpu-0", 10)}, 1, 3));
  pools.Apply(CounterSlice("a-counters-2", "node-a", {Counters("gpu-0", {{"memory", 80}})}, 3));
  EXPECT_EQ(pools.Find(id)->invalid_reason, "counter set gpu-0 is defined twice");
}

}  // namespace
}  // namespace dra::testing
