#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>

#include "src/base/RealClock.h"

namespace kube {
namespace {

TEST(RealClockTest, FollowsSteadyClock) {
  const auto before = std::chrono::steady_clock::now();
  const auto now = RealClock::Shared()->Now();
  EXPECT_LE(before, now);
  EXPECT_LE(now, std::chrono::steady_clock::now());
}

TEST(RealClockTest, WaitUntilReturnsOnceDeadlinePasses) {
  auto clock = RealClock::Shared();
  std::mutex mutex;
  std::condition_variable cv;
  const Clock::TimePoint deadline = clock->Now() + std::chrono::milliseconds(5);
  std::unique_lock<std::mutex> lock(mutex);
  while (clock->Now() < deadline) clock->WaitUntil(lock, cv, deadline);
  EXPECT_GE(clock->Now(), deadline);
  EXPECT_TRUE(lock.owns_lock());
}

TEST(RealClockTest, WaitWithoutDeadlineEndsOnNotify) {
  auto clock = RealClock::Shared();
  std::mutex mutex;
  std::condition_variable cv;
  bool notified = false;
  auto waiter = std::async(std::launch::async, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    while (!notified) clock->WaitUntil(lock, cv, Clock::kNever);
  });
  {
    std::lock_guard<std::mutex> guard(mutex);
    notified = true;
  }
  cv.notify_all();
  EXPECT_EQ(waiter.wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

}  // namespace
}  // namespace kube
