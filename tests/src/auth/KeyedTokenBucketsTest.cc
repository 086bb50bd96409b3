#include <gtest/gtest.h>

#include "src/auth/KeyedTokenBuckets.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Nanos = TokenBucket::Nanos;

TEST(KeyedTokenBucketsTest, EachKeyHasItsOwnBurstAndRate) {
  KeyedTokenBuckets buckets(2, seconds(1), 16);
  Nanos now{0};
  EXPECT_TRUE(buckets.TryTake("a", now));
  EXPECT_TRUE(buckets.TryTake("a", now));
  EXPECT_FALSE(buckets.TryTake("a", now));
  EXPECT_TRUE(buckets.TryTake("b", now));
  EXPECT_FALSE(buckets.TryTake("a", now + milliseconds(900)));
  EXPECT_TRUE(buckets.TryTake("a", now + milliseconds(1000)));
}

TEST(KeyedTokenBucketsTest, BoundedIdleBucketsGoFirstThenTheLeastRecentlyUsed) {
  KeyedTokenBuckets buckets(1, seconds(10), 2);
  Nanos now{0};
  EXPECT_TRUE(buckets.TryTake("a", now));
  EXPECT_TRUE(buckets.TryTake("b", now + seconds(1)));
  // Full: "a" (used least recently) makes room; "b" stays spent.
  EXPECT_TRUE(buckets.TryTake("c", now + seconds(2)));
  EXPECT_EQ(buckets.size(), 2u);
  EXPECT_FALSE(buckets.TryTake("b", now + seconds(3)));
  // Long idle buckets are full again anyway: dropped before any other.
  EXPECT_TRUE(buckets.TryTake("d", now + seconds(30)));
  EXPECT_LE(buckets.size(), 2u);
}

}  // namespace
}  // namespace kube
