#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

#include "src/base/FakeClock.h"
#include "src/base/Status.h"

namespace dra::testing {

// A FakeClock that counts how often a thread started waiting on it, so a test
// knows when a loop (a reflector, an elector, the Manager's startup) has
// reacted to a Step(): woken, worked, and waiting again.
class SettlingClock : public kube::Clock {
 public:
  TimePoint Now() const override;
  std::chrono::system_clock::time_point WallNow() const override;
  void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 TimePoint deadline) override;

  // Steps and waits (5 s at most) until a thread has waited again. Polls
  // finely: tests step hundreds of times.
  kube::Status StepAndSettle(Duration delta);
  void Step(Duration delta);
  int waits() const { return fake_.Waits(); }
  std::size_t NumWaiters() const { return fake_.NumWaiters(); }

 private:
  // Counts waits itself, under its own lock: a count taken here before the
  // waiter registered let a Step() slip in between and settle on a thread
  // that no Step() would wake again.
  kube::FakeClock fake_;
};

}  // namespace dra::testing
