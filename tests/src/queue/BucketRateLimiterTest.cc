#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "src/base/FakeClock.h"
#include "src/queue/BucketRateLimiter.h"

namespace kube {
namespace {

using std::chrono::milliseconds;

class BucketRateLimiterTest : public ::testing::Test {
 protected:
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  BucketRateLimiter limiter_{BucketRateLimiter::kDefaultQps, BucketRateLimiter::kDefaultBurst,
                             clock_};
};

TEST_F(BucketRateLimiterTest, BurstPassesThenOneEveryHundredMilliseconds) {
  for (int i = 0; i < 100; ++i) ASSERT_EQ(limiter_.When("k"), Clock::Duration::zero()) << i;
  // Further calls reserve tokens that do not exist yet, 100 ms apart.
  EXPECT_EQ(limiter_.When("k"), milliseconds(100));
  EXPECT_EQ(limiter_.When("other"), milliseconds(200));
  EXPECT_EQ(limiter_.When("k"), milliseconds(300));
}

TEST_F(BucketRateLimiterTest, TokensRefillOverTime) {
  for (int i = 0; i < 102; ++i) limiter_.When("k");  // two tokens borrowed
  clock_->Step(milliseconds(200));                   // repaid, bucket empty
  EXPECT_EQ(limiter_.When("k"), milliseconds(100));
  clock_->Step(milliseconds(150));  // one token repaid, half a token earned
  EXPECT_EQ(limiter_.When("k"), milliseconds(50));
  clock_->Step(milliseconds(250));  // two whole tokens
  EXPECT_EQ(limiter_.When("k"), Clock::Duration::zero());
  EXPECT_EQ(limiter_.When("k"), Clock::Duration::zero());
  EXPECT_EQ(limiter_.When("k"), milliseconds(100));
}

TEST_F(BucketRateLimiterTest, RefillStopsAtBurst) {
  for (int i = 0; i < 100; ++i) limiter_.When("k");
  clock_->Step(std::chrono::hours(1));
  for (int i = 0; i < 100; ++i) ASSERT_EQ(limiter_.When("k"), Clock::Duration::zero()) << i;
  EXPECT_EQ(limiter_.When("k"), milliseconds(100));
}

TEST_F(BucketRateLimiterTest, TracksNoKeys) {
  limiter_.When("k");
  EXPECT_EQ(limiter_.NumRequeues("k"), 0);
  limiter_.Forget("k");
  EXPECT_EQ(limiter_.NumRequeues("k"), 0);
}

TEST(BucketRateLimiterZeroQpsTest, OnlyTheBurstEverPasses) {
  auto clock = std::make_shared<FakeClock>();
  BucketRateLimiter limiter(0, 1, clock);
  EXPECT_EQ(limiter.When("k"), Clock::Duration::zero());
  clock->Step(std::chrono::hours(1));
  EXPECT_GT(limiter.When("k"), std::chrono::hours(24 * 365 * 100));
}

}  // namespace
}  // namespace kube
