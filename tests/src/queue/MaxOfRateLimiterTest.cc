#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <vector>

#include "src/queue/ItemExponentialFailureRateLimiter.h"
#include "src/queue/MaxOfRateLimiter.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::unique_ptr<RateLimiter> Exponential(Clock::Duration base, Clock::Duration max) {
  return std::make_unique<ItemExponentialFailureRateLimiter>(base, max);
}

MaxOfRateLimiter FastAndSlow() {
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(Exponential(milliseconds(1), seconds(1)));
  limiters.push_back(Exponential(milliseconds(10), milliseconds(40)));
  return MaxOfRateLimiter(std::move(limiters));
}

TEST(MaxOfRateLimiterTest, ReturnsTheLongestDelay) {
  MaxOfRateLimiter limiter = FastAndSlow();
  EXPECT_EQ(limiter.When("a"), milliseconds(10));
  EXPECT_EQ(limiter.When("a"), milliseconds(20));
  EXPECT_EQ(limiter.When("a"), milliseconds(40));
  EXPECT_EQ(limiter.When("a"), milliseconds(40));   // slow one capped; fast one at 8 ms
  for (int i = 0; i < 4; ++i) limiter.When("a");    // fast one: 16 .. 128 ms
  EXPECT_EQ(limiter.When("a"), milliseconds(256));  // now the fast one dominates
  EXPECT_EQ(limiter.NumRequeues("a"), 9);
}

TEST(MaxOfRateLimiterTest, ForgetReachesEveryLimiter) {
  MaxOfRateLimiter limiter = FastAndSlow();
  limiter.When("a");
  limiter.When("a");
  limiter.Forget("a");
  EXPECT_EQ(limiter.NumRequeues("a"), 0);
  EXPECT_EQ(limiter.When("a"), milliseconds(10));
}

TEST(MaxOfRateLimiterTest, EmptyNeverWaits) {
  MaxOfRateLimiter limiter({});
  EXPECT_EQ(limiter.When("a"), Clock::Duration::zero());
  EXPECT_EQ(limiter.NumRequeues("a"), 0);
}

}  // namespace
}  // namespace kube
