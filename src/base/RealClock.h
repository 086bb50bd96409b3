#pragma once

#include <memory>

#include "src/base/Clock.h"

namespace kube {

// The process's steady clock.
class RealClock : public Clock {
 public:
  // One shared instance; the clock is stateless.
  static std::shared_ptr<Clock> Shared();

  TimePoint Now() const override;
  std::chrono::system_clock::time_point WallNow() const override;
  void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 TimePoint deadline) override;
};

}  // namespace kube
