#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace kube {

// Monotonic time plus the one blocking primitive the work queue needs, so that
// tests can drive delays deterministically with a FakeClock.
class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Duration = std::chrono::steady_clock::duration;

  // Waits without a deadline: only a notification ends the wait.
  static constexpr TimePoint kNever = TimePoint::max();

  virtual ~Clock() = default;

  virtual TimePoint Now() const = 0;

  // Blocks the caller, which holds `lock`, until `cv` is notified or this
  // clock reaches `deadline`. Like a condition-variable wait it may return
  // early, and `lock` may be released meanwhile: callers re-check their state
  // in a loop.
  virtual void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                         TimePoint deadline) = 0;
};

}  // namespace kube
