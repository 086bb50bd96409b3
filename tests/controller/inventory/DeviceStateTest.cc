#include <gtest/gtest.h>

#include <set>

#include "controller/inventory/DeviceState.h"

namespace dra::inventory {
namespace {

DeviceFacts Free() { return {}; }

TEST(DeviceStateTest, AFreeDeviceIsOnlyFree) {
  DeviceState state = DeviceState::Of(Free());
  EXPECT_TRUE(state.free());
  EXPECT_EQ(state.Label(), "free");
  EXPECT_EQ(state.UnavailableReason(), "");
  EXPECT_TRUE(state.Has("free"));
  EXPECT_FALSE(state.Has("allocated"));
}

TEST(DeviceStateTest, AllocatedAndTaintedAreBothNamed) {
  DeviceFacts facts = Free();
  facts.allocated = true;
  facts.available = false;
  facts.tainted = true;
  DeviceState state = DeviceState::Of(facts);
  EXPECT_EQ(state.blocker(), DeviceBlocker::kAllocated);
  EXPECT_EQ(state.Label(), "allocated,tainted");
  EXPECT_TRUE(state.Has("allocated"));
  EXPECT_TRUE(state.Has("tainted"));
  EXPECT_FALSE(state.Has("free"));
  EXPECT_FALSE(state.Has("unavailable"));
}

// The halves of an allocated partitionable GPU: no claim holds them, but
// the counters they consume are used up.
TEST(DeviceStateTest, CountersInUseMakeADeviceUnavailable) {
  DeviceFacts facts = Free();
  facts.available = false;
  facts.counters_available = false;
  DeviceState state = DeviceState::Of(facts);
  EXPECT_FALSE(state.free());
  EXPECT_FALSE(state.allocated());
  EXPECT_EQ(state.blocker(), DeviceBlocker::kCountersInUse);
  EXPECT_EQ(state.Label(), "unavailable");
  EXPECT_EQ(state.UnavailableReason(), "counters in use");
  EXPECT_EQ(DeviceState::ReasonLabel(state.blocker()), "counters_in_use");
}

// A shared device with shares and room for another is both.
TEST(DeviceStateTest, SharedDeviceWithRoomIsAllocatedAndFree) {
  DeviceFacts facts = Free();
  facts.allocated = true;
  DeviceState state = DeviceState::Of(facts);
  EXPECT_TRUE(state.free());
  EXPECT_EQ(state.Label(), "allocated,free");
}

TEST(DeviceStateTest, ThePoolComesFirstThenTheTaint) {
  DeviceFacts facts = Free();
  facts.pool_complete = false;
  facts.available = false;
  facts.tainted = true;
  EXPECT_EQ(DeviceState::Of(facts).blocker(), DeviceBlocker::kPoolIncomplete);
  EXPECT_EQ(DeviceState::Of(facts).Label(), "unavailable,tainted");
  EXPECT_EQ(DeviceState::Of(facts).UnavailableReason(), "pool incomplete");
  DeviceFacts tainted = Free();
  tainted.tainted = true;
  EXPECT_EQ(DeviceState::Of(tainted).blocker(), DeviceBlocker::kTainted);
  EXPECT_EQ(DeviceState::Of(tainted).Label(), "tainted");
}

TEST(DeviceStateTest, AnUnusableClassBlocksOnlyAFreeDevice) {
  EXPECT_EQ(DeviceState::Of(Free()).BlockerFor(true), DeviceBlocker::kClassUnusable);
  EXPECT_EQ(DeviceState::Of(Free()).BlockerFor(false), DeviceBlocker::kNone);
  DeviceFacts tainted = Free();
  tainted.tainted = true;
  EXPECT_EQ(DeviceState::Of(tainted).BlockerFor(true), DeviceBlocker::kTainted);
}

TEST(DeviceStateTest, EveryBlockerHasADistinctReasonLabel) {
  std::set<std::string_view> labels;
  for (DeviceBlocker blocker : DeviceState::Blockers()) {
    EXPECT_FALSE(DeviceState::ReasonLabel(blocker).empty());
    labels.insert(DeviceState::ReasonLabel(blocker));
  }
  EXPECT_EQ(labels.size(), DeviceState::kBlockers - 1);
  EXPECT_FALSE(DeviceState::Of(Free()).Has("busy"));
}

}  // namespace
}  // namespace dra::inventory
