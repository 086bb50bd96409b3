#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace kube {

// The runtime's one source of time: monotonic time, wall time and the one
// blocking primitive loops need, so that tests drive every delay and
// timestamp deterministically with a FakeClock.
class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Duration = std::chrono::steady_clock::duration;

  // Waits without a deadline: only a notification ends the wait.
  static constexpr TimePoint kNever = TimePoint::max();

  virtual ~Clock() = default;

  virtual TimePoint Now() const = 0;
  // Wall-clock time, for timestamps written to the API (Events, Leases).
  // Only Now() may be used to measure intervals.
  virtual std::chrono::system_clock::time_point WallNow() const = 0;

  // Blocks the caller, which holds `lock`, until `cv` is notified or this
  // clock reaches `deadline`. Like a condition-variable wait it may return
  // early, and `lock` may be released meanwhile: callers re-check their state
  // in a loop.
  virtual void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                         TimePoint deadline) = 0;
};

}  // namespace kube
