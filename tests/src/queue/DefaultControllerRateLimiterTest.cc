#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "src/base/FakeClock.h"
#include "src/queue/DefaultControllerRateLimiter.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(DefaultControllerRateLimiterTest, BacksOffPerKeyFromFiveMilliseconds) {
  auto limiter = DefaultControllerRateLimiter(std::make_shared<FakeClock>());
  EXPECT_EQ(limiter->When("a"), milliseconds(5));
  EXPECT_EQ(limiter->When("a"), milliseconds(10));
  EXPECT_EQ(limiter->When("b"), milliseconds(5));
  EXPECT_EQ(limiter->NumRequeues("a"), 2);
  limiter->Forget("a");
  EXPECT_EQ(limiter->When("a"), milliseconds(5));
}

TEST(DefaultControllerRateLimiterTest, CapsPerKeyBackoffAtThousandSeconds) {
  auto clock = std::make_shared<FakeClock>();
  auto limiter = DefaultControllerRateLimiter(clock);
  for (int i = 0; i < 40; ++i) {
    limiter->When("a");
    clock->Step(seconds(1000));  // keeps the overall bucket full
  }
  EXPECT_EQ(limiter->When("a"), seconds(1000));
}

TEST(DefaultControllerRateLimiterTest, OverallBucketLimitsManyKeys) {
  auto limiter = DefaultControllerRateLimiter(std::make_shared<FakeClock>());
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(limiter->When("key-" + std::to_string(i)), milliseconds(5));
  EXPECT_EQ(limiter->When("key-100"), milliseconds(100));
  EXPECT_EQ(limiter->When("key-101"), milliseconds(200));
}

}  // namespace
}  // namespace kube
