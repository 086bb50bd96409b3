#include <gtest/gtest.h>

#include "controller/health/StormGuard.h"

namespace dra::health {
namespace {

FleetSize Fleet(int pool_a, int pool_b) {
  FleetSize fleet;
  fleet.by_pool = {{"d/a", pool_a}, {"d/b", pool_b}};
  fleet.by_driver = {{"d", pool_a + pool_b}};
  return fleet;
}

// A candidate tainting `devices` devices of its own (named after its key).
StormCandidate Bad(const std::string& key, const std::string& pool, int64_t since,
                   bool under = false, int devices = 1) {
  std::vector<std::string> names;
  for (int i = 0; i < devices; ++i) names.push_back(key + "-gpu-" + std::to_string(i));
  return {key, "d", pool, names, under, since};
}

TEST(StormGuardTest, AllowedRoundsDownButKeepsOne) {
  EXPECT_EQ(StormGuard::Allowed(0.25, 8), 2);
  EXPECT_EQ(StormGuard::Allowed(0.25, 7), 1);
  EXPECT_EQ(StormGuard::Allowed(0.25, 2), 1);
  EXPECT_EQ(StormGuard::Allowed(0.25, 0), 0);
  EXPECT_EQ(StormGuard::Allowed(0, 8), 0);
  EXPECT_EQ(StormGuard::Allowed(1, 8), 8);
}

TEST(StormGuardTest, ExactlyAtTheBoundary) {
  StormGuard guard(0.25);
  // 8 devices in pool a (and 8 in b): 2 of a may be NoExecute.
  auto two = guard.Admit({Bad("x", "a", 1), Bad("y", "a", 2)}, Fleet(8, 8));
  EXPECT_EQ(two, (std::set<std::string>{"x", "y"}));
  auto three = guard.Admit({Bad("x", "a", 1), Bad("y", "a", 2), Bad("z", "a", 3)}, Fleet(8, 8));
  EXPECT_EQ(three, (std::set<std::string>{"x", "y"}));
}

TEST(StormGuardTest, PromotesOldestWhenRoomFrees) {
  StormGuard guard(0.25);
  auto before = guard.Admit(
      {Bad("x", "a", 1, true), Bad("y", "a", 2, true), Bad("late", "a", 9), Bad("early", "a", 5)},
      Fleet(8, 8));
  EXPECT_EQ(before, (std::set<std::string>{"x", "y"}));
  // x recovers: the oldest waiting one takes its place.
  auto after =
      guard.Admit({Bad("y", "a", 2, true), Bad("late", "a", 9), Bad("early", "a", 5)}, Fleet(8, 8));
  EXPECT_EQ(after, (std::set<std::string>{"y", "early"}));
}

TEST(StormGuardTest, RunningEvictionsComeFirst) {
  StormGuard guard(0.25);
  auto admitted = guard.Admit({Bad("old", "a", 1), Bad("running", "a", 7, true)}, Fleet(4, 4));
  EXPECT_EQ(admitted, (std::set<std::string>{"running"}));
}

TEST(StormGuardTest, DriverShareAcrossPools) {
  StormGuard guard(0.25);
  // Pools of 4 allow one each; the driver's 8 devices allow two in total.
  FleetSize fleet;
  fleet.by_pool = {{"d/a", 4}, {"d/b", 4}, {"d/c", 4}};
  fleet.by_driver = {{"d", 8}};
  auto admitted = guard.Admit({Bad("a", "a", 1), Bad("b", "b", 2), Bad("c", "c", 3)}, fleet);
  EXPECT_EQ(admitted, (std::set<std::string>{"a", "b"}));
}

TEST(StormGuardTest, WholePoolCountsAllItsDevices) {
  StormGuard guard(0.5);
  EXPECT_TRUE(guard.Admit({Bad("p", "a", 1, false, 4)}, Fleet(8, 8)).contains("p"));
  EXPECT_FALSE(guard.Admit({Bad("p", "a", 1, false, 5)}, Fleet(8, 8)).contains("p"));
}

// Found by the chaos run (tests/chaos): a whole-pool DeviceHealth and one for
// a device of that pool, both Unhealthy, at 100 %, held one of them at
// NoSchedule for good: the shared device was counted twice (5 of 4).
TEST(StormGuardTest, OverlappingDeviceHealthsCountADeviceOnce) {
  std::vector<std::string> pool{"gpu-0", "gpu-1", "gpu-2", "gpu-3"};
  StormCandidate whole{"whole", "d", "a", pool, true, 1};
  StormCandidate one{"one", "d", "a", {"gpu-2"}, false, 2};
  EXPECT_EQ(StormGuard(1.0).Admit({whole, one}, Fleet(4, 4)),
            (std::set<std::string>{"whole", "one"}));
  // At 50 % of 8: the pool's first half and a device of it are 4 devices.
  StormCandidate half{"half", "d", "a", {"gpu-0", "gpu-1", "gpu-2", "gpu-3"}, true, 1};
  StormCandidate other{"other", "d", "a", {"gpu-4"}, false, 3};
  EXPECT_EQ(StormGuard(0.5).Admit({half, one, other}, Fleet(8, 8)),
            (std::set<std::string>{"half", "one"}));
}

}  // namespace
}  // namespace dra::health
