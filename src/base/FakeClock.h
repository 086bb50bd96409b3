#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "src/base/Clock.h"

namespace kube {

// A clock that only moves when a test calls Step(). Threads blocked in
// WaitUntil() are woken by every Step(), so delayed work becomes ready exactly
// when the test says so.
class FakeClock : public Clock {
 public:
  // Wall time starts at `wall_start` and moves with every Step().
  explicit FakeClock(TimePoint start = TimePoint{},
                     std::chrono::system_clock::time_point wall_start = {});

  TimePoint Now() const override;
  std::chrono::system_clock::time_point WallNow() const override;
  void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 TimePoint deadline) override;

  // Advances time by `delta` (>= 0) and wakes every waiter.
  void Step(Duration delta);

  // Threads currently blocked in WaitUntil().
  std::size_t NumWaiters() const;

  // WaitUntil() calls so far, each counted once its deadline was checked and
  // the caller registered: a counted caller is woken by every later Step().
  int Waits() const;

 private:
  struct Waiter {
    std::mutex* mutex;
    std::condition_variable* cv;
  };

  void Unregister(const Waiter* waiter);

  // Held by Step() while it notifies, and by waiters while they unregister,
  // so Step() never touches a waiter that has already returned.
  std::mutex step_mutex_;
  mutable std::mutex mutex_;  // guards now_ and waiters_
  TimePoint now_;
  const TimePoint start_;
  const std::chrono::system_clock::time_point wall_start_;
  std::vector<const Waiter*> waiters_;
  int waits_ = 0;
};

}  // namespace kube
