#include "src/queue/BucketRateLimiter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace kube {

namespace {

// One token's interval; zero (never refills) for qps <= 0.
TokenBucket::Nanos IntervalOf(double qps) {
  if (!(qps > 0)) return TokenBucket::Nanos::zero();
  return TokenBucket::Nanos(std::max<int64_t>(1, std::llround(1e9 / qps)));
}

}  // namespace

BucketRateLimiter::BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock)
    : clock_(std::move(clock)),
      bucket_(std::max(burst, 1), IntervalOf(qps), clock_->Now().time_since_epoch()) {}

Clock::Duration BucketRateLimiter::When(const std::string& /*key*/) {
  std::lock_guard<std::mutex> guard(mutex_);
  auto wait = bucket_.Reserve(clock_->Now().time_since_epoch());
  return std::chrono::duration_cast<Clock::Duration>(wait);
}

void BucketRateLimiter::Forget(const std::string& /*key*/) {}

int BucketRateLimiter::NumRequeues(const std::string& /*key*/) { return 0; }

}  // namespace kube
