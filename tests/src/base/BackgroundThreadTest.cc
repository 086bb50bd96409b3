#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>

#include "src/base/BackgroundThread.h"
#include "src/base/FakeClock.h"

namespace kube {
namespace {

using std::chrono::seconds;

TEST(BackgroundThreadTest, StopWakesASleepingBodyAtOnce) {
  BackgroundThread thread;
  std::promise<bool> slept;
  ASSERT_TRUE(thread.Start([&] { slept.set_value(thread.SleepFor(std::chrono::hours(1))); }));
  thread.Stop();
  EXPECT_FALSE(slept.get_future().get()) << "a stopped sleep must report the stop";
}

TEST(BackgroundThreadTest, SleepEndsWhenTheFakeClockReachesTheDeadline) {
  auto clock = std::make_shared<FakeClock>();
  BackgroundThread thread(clock);
  std::promise<bool> slept;
  auto result = slept.get_future();
  ASSERT_TRUE(thread.Start([&] { slept.set_value(thread.SleepFor(seconds(10))); }));
  while (clock->NumWaiters() == 0) std::this_thread::yield();
  clock->Step(seconds(9));
  EXPECT_EQ(result.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  clock->Step(seconds(1));
  EXPECT_TRUE(result.get());
}

TEST(BackgroundThreadTest, StartsOnceAndNotAfterStop) {
  BackgroundThread thread;
  EXPECT_TRUE(thread.Start([] {}));
  EXPECT_FALSE(thread.Start([] {}));
  thread.Stop();
  BackgroundThread stopped;
  stopped.Stop();
  EXPECT_FALSE(stopped.Start([] {}));
  EXPECT_TRUE(stopped.stopping());
}

TEST(BackgroundThreadTest, AnExceptionEndsTheBodyNotTheProcess) {
  BackgroundThread thread;
  std::atomic<bool> entered{false};
  ASSERT_TRUE(thread.Start([&] {
    entered = true;
    throw std::runtime_error("boom");
  }));
  thread.Stop();
  EXPECT_TRUE(entered);
}

}  // namespace
}  // namespace kube
