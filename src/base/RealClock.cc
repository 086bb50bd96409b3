#include "src/base/RealClock.h"

namespace kube {

std::shared_ptr<Clock> RealClock::Shared() {
  static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
  return clock;
}

Clock::TimePoint RealClock::Now() const { return std::chrono::steady_clock::now(); }

std::chrono::system_clock::time_point RealClock::WallNow() const {
  return std::chrono::system_clock::now();
}

void RealClock::WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                          TimePoint deadline) {
  // wait_until(max) converts the deadline to the underlying clock and can
  // overflow into the past, which would turn the caller into a busy loop.
  if (deadline == kNever) {
    cv.wait(lock);
  } else {
    cv.wait_until(lock, deadline);
  }
}

}  // namespace kube
