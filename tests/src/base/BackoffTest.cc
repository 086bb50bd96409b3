#include <gtest/gtest.h>

#include "src/base/Backoff.h"
#include "src/base/FakeClock.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

BackoffOptions NoJitter() {
  BackoffOptions options;
  options.jitter = 0;
  return options;
}

TEST(BackoffTest, DefaultsAreClientGos) {
  BackoffOptions options;
  EXPECT_EQ(options.initial, milliseconds(800));
  EXPECT_EQ(options.max, seconds(30));
  EXPECT_EQ(options.factor, 2.0);
  EXPECT_EQ(options.jitter, 1.0);
  EXPECT_EQ(options.reset_after, seconds(120));
}

TEST(BackoffTest, DoublesUpToTheCap) {
  auto clock = std::make_shared<FakeClock>();
  Backoff backoff(NoJitter(), clock);
  std::vector<int64_t> got;
  for (int i = 0; i < 8; ++i) got.push_back(backoff.Next().count());
  EXPECT_EQ(got, (std::vector<int64_t>{800, 1600, 3200, 6400, 12800, 25600, 30000, 30000}));
}

TEST(BackoffTest, JitterStaysWithinOneFactor) {
  Backoff backoff(BackoffOptions{}, std::make_shared<FakeClock>());
  for (int64_t base : {800, 1600, 3200}) {
    auto delay = backoff.Next().count();
    EXPECT_GE(delay, base);
    EXPECT_LT(delay, 2 * base);
  }
}

TEST(BackoffTest, ResetsAfterAQuietPeriod) {
  auto clock = std::make_shared<FakeClock>();
  Backoff backoff(NoJitter(), clock);
  backoff.Next();
  backoff.Next();
  clock->Step(seconds(60));
  EXPECT_EQ(backoff.Next(), milliseconds(3200)) << "60 s is not quiet enough to reset";
  clock->Step(seconds(121));
  EXPECT_EQ(backoff.Next(), milliseconds(800));
}

TEST(BackoffTest, ResetStartsAgain) {
  Backoff backoff(NoJitter(), std::make_shared<FakeClock>());
  backoff.Next();
  backoff.Next();
  backoff.Reset();
  EXPECT_EQ(backoff.Next(), milliseconds(800));
}

}  // namespace
}  // namespace kube
