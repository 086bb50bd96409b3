#include "tests/support/SettlingClock.h"

#include <thread>

namespace dra::testing {

kube::Clock::TimePoint SettlingClock::Now() const { return fake_.Now(); }

std::chrono::system_clock::time_point SettlingClock::WallNow() const { return fake_.WallNow(); }

void SettlingClock::WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                              TimePoint deadline) {
  fake_.WaitUntil(lock, cv, deadline);
}

kube::Status SettlingClock::StepAndSettle(Duration delta) {
  int before = fake_.Waits();
  fake_.Step(delta);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (fake_.Waits() <= before) {
    if (std::chrono::steady_clock::now() > deadline) {
      return kube::Status(kube::StatusCode::kTimeout, "no loop waited on the clock again");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return kube::Status::Ok();
}

void SettlingClock::Step(Duration delta) { fake_.Step(delta); }

}  // namespace dra::testing
