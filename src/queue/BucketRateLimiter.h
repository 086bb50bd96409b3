#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "src/base/TokenBucket.h"
#include "src/queue/RateLimiter.h"

namespace kube {

// One token bucket shared by all keys: `burst` retries pass at once, then one
// every 1/qps seconds. Like golang.org/x/time/rate's Reserve(), each When()
// takes a token even if it has to borrow it from the future, and returns how
// long until that token exists. Tracks no per-key state.
class BucketRateLimiter : public RateLimiter {
 public:
  static constexpr double kDefaultQps = 10;
  static constexpr int kDefaultBurst = 100;

  // qps must be > 0 and burst >= 1 (smaller values are raised to those).
  BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock);

  Clock::Duration When(const std::string& key) override;
  void Forget(const std::string& key) override;
  int NumRequeues(const std::string& key) override;

 private:
  const std::shared_ptr<Clock> clock_;
  std::mutex mutex_;
  TokenBucket bucket_;
};

}  // namespace kube
