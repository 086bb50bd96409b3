#include <gtest/gtest.h>

#include "src/cache/WatchListPolicy.h"

namespace kube {
namespace {

using namespace std::chrono_literals;

const Clock::TimePoint kStart = Clock::TimePoint(1h);
const Status kInvalid(StatusCode::kInvalid, "sendInitialEvents is forbidden");
const Status kBadRequest(StatusCode::kInvalidArgument, "bad request");
const Status kReset(StatusCode::kUnavailable, "connection reset");
const Status kGone(StatusCode::kGone, "too old");

TEST(WatchListPolicyTest, AutoTriesUntilAFallbackThenWaitsOutTheRetryPeriod) {
  WatchListPolicy policy(WatchListMode::kAuto, 600s);
  EXPECT_TRUE(policy.ShouldTry(true, kStart));
  EXPECT_FALSE(policy.ShouldTry(false, kStart)) << "a lister-watcher without watch-list";
  policy.FellBack(kStart);
  EXPECT_FALSE(policy.ShouldTry(true, kStart + 599s));
  EXPECT_TRUE(policy.ShouldTry(true, kStart + 600s));
}

TEST(WatchListPolicyTest, AutoFallsBackOnRefusalOrMissingBookmarkOnly) {
  WatchListPolicy policy(WatchListMode::kAuto, 600s);
  EXPECT_TRUE(policy.ShouldFallBack(kInvalid, false));
  EXPECT_TRUE(policy.ShouldFallBack(kBadRequest, false));
  EXPECT_TRUE(policy.ShouldFallBack(Status::Ok(), true));
  EXPECT_FALSE(policy.ShouldFallBack(kReset, false)) << "a network fault is retried";
  EXPECT_FALSE(policy.ShouldFallBack(kGone, false)) << "410 starts the watch-list over";
}

TEST(WatchListPolicyTest, ForcedModesNeverFallBack) {
  WatchListPolicy on(WatchListMode::kOn, 600s);
  EXPECT_TRUE(on.ShouldTry(true, kStart));
  on.FellBack(kStart);
  EXPECT_TRUE(on.ShouldTry(true, kStart));
  EXPECT_FALSE(on.ShouldFallBack(kInvalid, true));
  WatchListPolicy off(WatchListMode::kOff, 600s);
  EXPECT_FALSE(off.ShouldTry(true, kStart));
}

TEST(WatchListModeTest, ParsesTheFlagValues) {
  for (auto mode : {WatchListMode::kAuto, WatchListMode::kOn, WatchListMode::kOff}) {
    auto parsed = ParseWatchListMode(WatchListModeName(mode));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, mode);
  }
  auto bad = ParseWatchListMode("yes");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("want auto, on or off"), std::string::npos);
}

}  // namespace
}  // namespace kube
