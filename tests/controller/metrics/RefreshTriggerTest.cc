#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>

#include "controller/metrics/RefreshTrigger.h"

namespace dra::metrics {
namespace {

class RefreshTriggerTest : public ::testing::Test {
 protected:
  uint64_t version_ = 7;
  RefreshTrigger trigger_{[this] { return version_; }};
};

TEST_F(RefreshTriggerTest, TheFirstCallRendersEvenWithNothingSignalled) {
  EXPECT_TRUE(trigger_.TakeChange());
  EXPECT_FALSE(trigger_.TakeChange());
}

TEST_F(RefreshTriggerTest, NothingChangedMeansNoRender) {
  ASSERT_TRUE(trigger_.TakeChange());
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(trigger_.TakeChange()) << i;
}

TEST_F(RefreshTriggerTest, ARaisedFlagRendersOnceAndIsCleared) {
  ASSERT_TRUE(trigger_.TakeChange());
  trigger_.flag()->store(true);
  EXPECT_TRUE(trigger_.TakeChange());
  EXPECT_FALSE(trigger_.flag()->load());
  EXPECT_FALSE(trigger_.TakeChange());
}

TEST_F(RefreshTriggerTest, AMovedVersionRendersOnceWithoutAnyFlag) {
  ASSERT_TRUE(trigger_.TakeChange());
  version_ = 8;
  EXPECT_TRUE(trigger_.TakeChange());
  EXPECT_FALSE(trigger_.TakeChange());
  version_ = 9;
  trigger_.flag()->store(true);
  EXPECT_TRUE(trigger_.TakeChange());
  EXPECT_FALSE(trigger_.TakeChange());
}

// A change that lands while a render is running must cause the next render:
// the state is taken before the sources are read, not after. Each source on
// its own.
TEST_F(RefreshTriggerTest, AVersionMovedDuringARenderIsNotLost) {
  ASSERT_TRUE(trigger_.TakeChange());
  version_ = 8;
  ASSERT_TRUE(trigger_.TakeChange());  // the render starts reading here
  version_ = 9;                        // applied while it reads
  EXPECT_TRUE(trigger_.TakeChange());
}

TEST_F(RefreshTriggerTest, AFlagRaisedDuringARenderIsNotLost) {
  ASSERT_TRUE(trigger_.TakeChange());
  trigger_.flag()->store(true);
  ASSERT_TRUE(trigger_.TakeChange());  // the render starts reading here
  trigger_.flag()->store(true);        // an informer event while it reads
  EXPECT_TRUE(trigger_.TakeChange());
}

}  // namespace
}  // namespace dra::metrics
