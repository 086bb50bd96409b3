#include "src/queue/ItemExponentialFailureRateLimiter.h"

#include <cmath>
#include <limits>

namespace kube {

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(Clock::Duration base_delay,
                                                                     Clock::Duration max_delay)
    : base_delay_(base_delay), max_delay_(max_delay) {}

Clock::Duration ItemExponentialFailureRateLimiter::When(const std::string& key) {
  std::lock_guard<std::mutex> guard(mutex_);
  int& failures = failures_[key];
  const Clock::Duration backoff = BackoffFor(failures);
  if (failures < std::numeric_limits<int>::max()) ++failures;
  return backoff;
}

Clock::Duration ItemExponentialFailureRateLimiter::BackoffFor(int failures) const {
  if (base_delay_ <= Clock::Duration::zero()) return Clock::Duration::zero();
  // Computed in floating point: 2^failures overflows any integer long before
  // the failure count does, and a double just grows to infinity.
  const double backoff = static_cast<double>(base_delay_.count()) * std::exp2(failures);
  if (!(backoff < static_cast<double>(max_delay_.count()))) return max_delay_;
  return Clock::Duration(static_cast<Clock::Duration::rep>(backoff));
}

void ItemExponentialFailureRateLimiter::Forget(const std::string& key) {
  std::lock_guard<std::mutex> guard(mutex_);
  failures_.erase(key);
}

int ItemExponentialFailureRateLimiter::NumRequeues(const std::string& key) {
  std::lock_guard<std::mutex> guard(mutex_);
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

}  // namespace kube
