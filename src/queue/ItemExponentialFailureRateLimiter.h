#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

#include "src/queue/RateLimiter.h"

namespace kube {

// Per-key backoff: base_delay * 2^(failures so far), capped at max_delay.
class ItemExponentialFailureRateLimiter : public RateLimiter {
 public:
  ItemExponentialFailureRateLimiter(Clock::Duration base_delay, Clock::Duration max_delay);

  Clock::Duration When(const std::string& key) override;
  void Forget(const std::string& key) override;
  int NumRequeues(const std::string& key) override;

 private:
  Clock::Duration BackoffFor(int failures) const;

  const Clock::Duration base_delay_;
  const Clock::Duration max_delay_;
  std::mutex mutex_;
  std::unordered_map<std::string, int> failures_;
};

}  // namespace kube
