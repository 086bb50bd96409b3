#include "src/base/LogThrottle.h"

namespace kube {

std::optional<std::size_t> LogThrottle::Admit() {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mu_);
  if (last_ && now - *last_ < interval_) {
    ++suppressed_;
    return std::nullopt;
  }
  last_ = now;
  std::size_t suppressed = suppressed_;
  suppressed_ = 0;
  return suppressed;
}

}  // namespace kube
