#include <gtest/gtest.h>

#include <chrono>

#include "src/queue/ItemExponentialFailureRateLimiter.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(ItemExponentialFailureRateLimiterTest, DoublesPerFailureUpToTheCap) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(5), seconds(1000));
  Clock::Duration expected = milliseconds(5);
  for (int failure = 0; failure < 18; ++failure) {
    EXPECT_EQ(limiter.When("a"), expected) << "failure " << failure;
    expected *= 2;
  }
  // 5 ms * 2^18 = 1310.72 s: capped from here on.
  EXPECT_EQ(limiter.When("a"), seconds(1000));
  EXPECT_EQ(limiter.When("a"), seconds(1000));
  EXPECT_EQ(limiter.NumRequeues("a"), 20);
}

TEST(ItemExponentialFailureRateLimiterTest, HugeFailureCountsStayAtTheCap) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(5), seconds(1000));
  for (int i = 0; i < 100000; ++i) limiter.When("a");
  EXPECT_EQ(limiter.When("a"), seconds(1000));
  EXPECT_EQ(limiter.NumRequeues("a"), 100001);
}

TEST(ItemExponentialFailureRateLimiterTest, ForgetStartsOver) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(5), seconds(1000));
  limiter.When("a");
  limiter.When("a");
  EXPECT_EQ(limiter.NumRequeues("a"), 2);
  limiter.Forget("a");
  EXPECT_EQ(limiter.NumRequeues("a"), 0);
  EXPECT_EQ(limiter.When("a"), milliseconds(5));
}

TEST(ItemExponentialFailureRateLimiterTest, KeysBackOffIndependently) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(1), seconds(1));
  limiter.When("a");
  limiter.When("a");
  EXPECT_EQ(limiter.When("b"), milliseconds(1));
  EXPECT_EQ(limiter.When("a"), milliseconds(4));
  EXPECT_EQ(limiter.NumRequeues("b"), 1);
}

TEST(ItemExponentialFailureRateLimiterTest, ZeroBaseDelayNeverWaits) {
  ItemExponentialFailureRateLimiter limiter(Clock::Duration::zero(), seconds(1));
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(limiter.When("a"), Clock::Duration::zero());
}

}  // namespace
}  // namespace kube
