#include <gtest/gtest.h>

#include "controller/health/OwnWrites.h"

namespace dra::health {
namespace {

using namespace std::chrono_literals;

const kube::Clock::TimePoint kT0{};

TEST(OwnWritesTest, WaitsWhileTheHealthCacheShowsTheVersionWrittenOver) {
  OwnWrites writes(2s);
  writes.Record("a", {"7", std::nullopt}, kT0);
  EXPECT_EQ(writes.Wait("a", "7", "", kT0 + 500ms), 1500ms);
  EXPECT_EQ(writes.Wait("b", "7", "", kT0), std::nullopt);          // other keys are not held
  EXPECT_EQ(writes.Wait("a", "8", "", kT0 + 600ms), std::nullopt);  // the watch caught up
  EXPECT_EQ(writes.Wait("a", "7", "", kT0 + 700ms), std::nullopt);  // and that is remembered
}

TEST(OwnWritesTest, ACreatedRuleIsAwaitedUntilTheCacheHasOne) {
  OwnWrites writes(2s);
  writes.Record("a", {std::nullopt, ""}, kT0);
  EXPECT_EQ(writes.Wait("a", "7", "", kT0), 2s);
  EXPECT_EQ(writes.Wait("a", "7", "12", kT0), std::nullopt);
}

TEST(OwnWritesTest, BothWritesMustShowUp) {
  OwnWrites writes(2s);
  writes.Record("a", {"7", "11"}, kT0);
  EXPECT_NE(writes.Wait("a", "8", "11", kT0), std::nullopt);
  EXPECT_NE(writes.Wait("a", "7", "12", kT0), std::nullopt);
  EXPECT_EQ(writes.Wait("a", "8", "12", kT0), std::nullopt);
}

TEST(OwnWritesTest, PatienceRunsOutAndNoWriteRecordsNothing) {
  OwnWrites writes(2s);
  writes.Record("a", {"7", std::nullopt}, kT0);
  EXPECT_EQ(writes.Wait("a", "7", "", kT0 + 2s), std::nullopt);
  writes.Record("a", {"7", std::nullopt}, kT0);
  writes.Record("a", {}, kT0);
  EXPECT_EQ(writes.Wait("a", "7", "", kT0), std::nullopt);
  writes.Record("a", {"7", std::nullopt}, kT0);
  writes.Forget("a");
  EXPECT_EQ(writes.Wait("a", "7", "", kT0), std::nullopt);
}

}  // namespace
}  // namespace dra::health
