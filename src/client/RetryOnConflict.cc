#include "src/client/RetryOnConflict.h"

#include <random>
#include <thread>

namespace kube {

Status RetryOnConflict(const std::function<Status()>& attempt, int max_attempts,
                       std::chrono::milliseconds delay) {
  static thread_local std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> jitter(1.0, 1.1);
  Status last;
  for (int i = 0; i < max_attempts; ++i) {
    last = attempt();
    if (last.code() != StatusCode::kConflict) return last;
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::milli>(delay.count() * jitter(rng)));
  }
  return last;
}

}  // namespace kube
