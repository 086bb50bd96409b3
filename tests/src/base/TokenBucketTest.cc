#include <gtest/gtest.h>

#include "src/base/TokenBucket.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using Nanos = TokenBucket::Nanos;

TEST(TokenBucketTest, TryTakeSpendsTheBurstThenEarnsOnePerInterval) {
  TokenBucket bucket(2, minutes(5), Nanos(0));
  EXPECT_TRUE(bucket.TryTake(Nanos(0)));
  EXPECT_TRUE(bucket.TryTake(Nanos(0)));
  EXPECT_FALSE(bucket.TryTake(Nanos(0)));
  EXPECT_FALSE(bucket.TryTake(minutes(4) + std::chrono::seconds(59)));
  EXPECT_TRUE(bucket.TryTake(minutes(5)));
  EXPECT_FALSE(bucket.TryTake(minutes(5)));
}

TEST(TokenBucketTest, AFullBucketBanksNothingAndABackwardClockEarnsNothing) {
  TokenBucket bucket(1, minutes(1), minutes(10));
  EXPECT_TRUE(bucket.TryTake(minutes(60)));  // full for 50 minutes: still one token
  EXPECT_FALSE(bucket.TryTake(minutes(60)));
  EXPECT_FALSE(bucket.TryTake(minutes(30)));  // backwards
  EXPECT_FALSE(bucket.TryTake(minutes(60) + std::chrono::seconds(59)));
  EXPECT_TRUE(bucket.TryTake(minutes(61)));
}

TEST(TokenBucketTest, ReserveBorrowsFromTheFuture) {
  TokenBucket bucket(1, milliseconds(100), Nanos(0));
  EXPECT_EQ(bucket.Reserve(Nanos(0)), Nanos::zero());
  EXPECT_EQ(bucket.Reserve(Nanos(0)), milliseconds(100));
  EXPECT_EQ(bucket.Reserve(milliseconds(50)), milliseconds(150));
  EXPECT_FALSE(bucket.TryTake(milliseconds(200))) << "borrowed tokens are repaid first";
}

TEST(TokenBucketTest, WithoutRefillOnlyTheBurstEverPasses) {
  TokenBucket bucket(1, Nanos::zero(), Nanos(0));
  EXPECT_EQ(bucket.Reserve(Nanos(0)), Nanos::zero());
  EXPECT_EQ(bucket.Reserve(std::chrono::hours(1000)), Nanos::max());
  EXPECT_FALSE(bucket.TryTake(std::chrono::hours(2000)));
}

}  // namespace
}  // namespace kube
