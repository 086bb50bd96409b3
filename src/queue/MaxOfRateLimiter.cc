#include "src/queue/MaxOfRateLimiter.h"

#include <algorithm>

namespace kube {

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters)
    : limiters_(std::move(limiters)) {}

Clock::Duration MaxOfRateLimiter::When(const std::string& key) {
  Clock::Duration longest = Clock::Duration::zero();
  for (const auto& limiter : limiters_) longest = std::max(longest, limiter->When(key));
  return longest;
}

void MaxOfRateLimiter::Forget(const std::string& key) {
  for (const auto& limiter : limiters_) limiter->Forget(key);
}

int MaxOfRateLimiter::NumRequeues(const std::string& key) {
  int most = 0;
  for (const auto& limiter : limiters_) most = std::max(most, limiter->NumRequeues(key));
  return most;
}

}  // namespace kube
