#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/queue/RateLimiter.h"

namespace kube {

// Combines limiters: a key waits as long as the strictest of them says.
class MaxOfRateLimiter : public RateLimiter {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);

  // Asks every limiter, so each one records the retry.
  Clock::Duration When(const std::string& key) override;
  void Forget(const std::string& key) override;
  int NumRequeues(const std::string& key) override;

 private:
  const std::vector<std::unique_ptr<RateLimiter>> limiters_;
};

}  // namespace kube
