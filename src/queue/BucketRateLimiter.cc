#include "src/queue/BucketRateLimiter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace kube {

BucketRateLimiter::BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock)
    : qps_(qps > 0 ? qps : std::numeric_limits<double>::min()),
      burst_(std::max(burst, 1)),
      clock_(std::move(clock)),
      tokens_(burst_),
      last_refill_(clock_->Now()) {}

Clock::Duration BucketRateLimiter::When(const std::string& /*key*/) {
  std::lock_guard<std::mutex> guard(mutex_);
  Refill(clock_->Now());
  tokens_ -= 1;
  return tokens_ < 0 ? TimeToEarn(-tokens_) : Clock::Duration::zero();
}

void BucketRateLimiter::Refill(Clock::TimePoint now) {
  if (now <= last_refill_) return;
  const double elapsed_seconds = std::chrono::duration<double>(now - last_refill_).count();
  tokens_ = std::min(tokens_ + elapsed_seconds * qps_, burst_);
  last_refill_ = now;
}

Clock::Duration BucketRateLimiter::TimeToEarn(double tokens) const {
  const double nanos = tokens * 1e9 / qps_;
  constexpr auto kMax = std::numeric_limits<Clock::Duration::rep>::max();
  if (nanos >= static_cast<double>(kMax)) return Clock::Duration(kMax);
  return std::chrono::duration_cast<Clock::Duration>(std::chrono::nanoseconds(std::llround(nanos)));
}

void BucketRateLimiter::Forget(const std::string& /*key*/) {}

int BucketRateLimiter::NumRequeues(const std::string& /*key*/) { return 0; }

}  // namespace kube
