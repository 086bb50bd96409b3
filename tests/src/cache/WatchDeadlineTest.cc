#include <gtest/gtest.h>

#include "src/cache/WatchDeadline.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using dra::testing::TestTime;

TEST(WatchDeadlineTest, CutsAStreamWithoutProgress) {
  CancelFlag stream;
  WatchDeadline deadline(50ms, 1h, stream);
  ASSERT_TRUE(dra::testing::WaitFor("the cut", 5s, [&] { return stream.cancelled(); }).ok());
  EXPECT_EQ(deadline.cut(), WatchDeadline::Cut::kNoProgress);
}

TEST(WatchDeadlineTest, ProgressKeepsItOpenUntilItsLifetimeEnds) {
  CancelFlag stream;
  auto began = std::chrono::steady_clock::now();
  WatchDeadline deadline(300ms, 1000ms, stream);
  while (!stream.cancelled() && std::chrono::steady_clock::now() - began < 5s) {
    deadline.Progress();
    std::this_thread::sleep_for(20ms);  // the events' pace, not a wait for a result
  }
  EXPECT_TRUE(stream.cancelled());
  EXPECT_EQ(deadline.cut(), WatchDeadline::Cut::kOverran);
  EXPECT_GE(std::chrono::steady_clock::now() - began, 1000ms);
  EXPECT_LT(std::chrono::steady_clock::now() - began, 1000ms + TestTime::Scaled(1s));
}

TEST(WatchDeadlineTest, ADestroyedDeadlineNeverFires) {
  CancelFlag stream;
  { WatchDeadline deadline(30ms, 30ms, stream); }
  std::this_thread::sleep_for(100ms);  // past both deadlines: proves the negative
  EXPECT_FALSE(stream.cancelled());
}

}  // namespace
}  // namespace kube
