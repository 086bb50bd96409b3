#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>

namespace kube {

// At most one log line per interval for a repeating event (a flood of failed
// requests, accept errors): Admit() says whether this occurrence may be
// logged and how many were held back since the last one that was.
// Thread-safe.
class LogThrottle {
 public:
  explicit LogThrottle(std::chrono::milliseconds interval) : interval_(interval) {}

  // The count of suppressed occurrences before this one when it may be
  // logged; nullopt when it is suppressed.
  std::optional<std::size_t> Admit();

 private:
  const std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::optional<std::chrono::steady_clock::time_point> last_;
  std::size_t suppressed_ = 0;
};

}  // namespace kube
