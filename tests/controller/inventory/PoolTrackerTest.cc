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

}  // namespace
}  // namespace dra::testing
