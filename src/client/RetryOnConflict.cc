#include "src/client/RetryOnConflict.h"

#include <thread>

#include "src/base/Jitter.h"

namespace kube {

Status RetryOnConflict(const std::function<Status()>& attempt, int max_attempts,
                       std::chrono::milliseconds delay) {
  Status last;
  for (int i = 0; i < max_attempts; ++i) {
    last = attempt();
    if (last.code() != StatusCode::kConflict) return last;
    std::this_thread::sleep_for(Jitter(delay, 0.1));
  }
  return last;
}

}  // namespace kube
