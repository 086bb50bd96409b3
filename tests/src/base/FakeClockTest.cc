#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>

#include "src/base/FakeClock.h"
#include "tests/src/queue/QueueTestHelpers.h"

namespace kube {
namespace {

using std::chrono::seconds;
using testing::Eventually;

TEST(FakeClockTest, MovesOnlyWhenStepped) {
  FakeClock clock;
  const Clock::TimePoint start = clock.Now();
  EXPECT_EQ(clock.Now(), start);
  clock.Step(seconds(3));
  EXPECT_EQ(clock.Now() - start, seconds(3));
}

TEST(FakeClockTest, IgnoresNegativeSteps) {
  FakeClock clock;
  const Clock::TimePoint start = clock.Now();
  clock.Step(-seconds(3));
  EXPECT_EQ(clock.Now(), start);
}

TEST(FakeClockTest, WaitUntilReturnsAtOnceForPastDeadline) {
  FakeClock clock;
  std::mutex mutex;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mutex);
  clock.WaitUntil(lock, cv, clock.Now());
  EXPECT_TRUE(lock.owns_lock());
  EXPECT_EQ(clock.NumWaiters(), 0u);
}

// A thread waiting for a fake deadline finishes exactly when steps reach it.
TEST(FakeClockTest, StepWakesWaiterWhenDeadlineIsReached) {
  FakeClock clock;
  std::mutex mutex;
  std::condition_variable cv;
  const Clock::TimePoint deadline = clock.Now() + seconds(10);
  auto waiter = std::async(std::launch::async, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    while (clock.Now() < deadline) clock.WaitUntil(lock, cv, deadline);
  });
  ASSERT_TRUE(Eventually([&] { return clock.NumWaiters() == 1; }));

  clock.Step(seconds(9));
  // Still short of the deadline, so the waiter is (again) blocked.
  ASSERT_TRUE(Eventually([&] { return clock.NumWaiters() == 1; }));
  EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);

  clock.Step(seconds(1));
  ASSERT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_EQ(clock.NumWaiters(), 0u);
}

TEST(FakeClockTest, NotifyWakesWaiterBeforeDeadline) {
  FakeClock clock;
  std::mutex mutex;
  std::condition_variable cv;
  bool notified = false;
  auto waiter = std::async(std::launch::async, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    while (!notified) clock.WaitUntil(lock, cv, Clock::kNever);
  });
  ASSERT_TRUE(Eventually([&] { return clock.NumWaiters() == 1; }));
  {
    std::lock_guard<std::mutex> guard(mutex);
    notified = true;
  }
  cv.notify_all();
  EXPECT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready);
}

// Steps racing with waiters must never lose a wakeup or deadlock.
TEST(FakeClockTest, ConcurrentStepsAndWaitsTerminate) {
  FakeClock clock;
  std::mutex mutex;
  std::condition_variable cv;
  const Clock::TimePoint deadline = clock.Now() + seconds(200);
  std::vector<std::future<void>> waiters;
  for (int i = 0; i < 4; ++i) {
    waiters.push_back(std::async(std::launch::async, [&] {
      std::unique_lock<std::mutex> lock(mutex);
      while (clock.Now() < deadline) clock.WaitUntil(lock, cv, deadline);
    }));
  }
  for (int i = 0; i < 200; ++i) clock.Step(seconds(1));
  for (auto& waiter : waiters) EXPECT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready);
}

// A test that steps once it sees a wait counted must wake that waiter: the
// count is taken where the waiter registers, never before it.
TEST(FakeClockTest, EveryCountedWaitIsWokenByTheNextStep) {
  FakeClock clock;
  std::mutex mutex;
  std::condition_variable cv;
  for (int round = 0; round < 500; ++round) {
    const int before = clock.Waits();
    auto waiter = std::async(std::launch::async, [&] {
      std::unique_lock<std::mutex> lock(mutex);
      clock.WaitUntil(lock, cv, Clock::kNever);  // returns on a Step() only
    });
    ASSERT_TRUE(Eventually([&] { return clock.Waits() > before; }));
    clock.Step(std::chrono::milliseconds(1));
    ASSERT_EQ(waiter.wait_for(seconds(10)), std::future_status::ready) << "round " << round;
  }
}

}  // namespace
}  // namespace kube
