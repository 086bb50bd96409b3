#pragma once

#include <string>

#include "src/base/Clock.h"

namespace kube {

// Decides how long a key waits before it is retried. Implementations are
// thread-safe.
class RateLimiter {
 public:
  virtual ~RateLimiter() = default;

  // Records one more retry of `key` and returns how long it should wait.
  virtual Clock::Duration When(const std::string& key) = 0;

  // Stops tracking `key` (it succeeded or was given up on).
  virtual void Forget(const std::string& key) = 0;

  // Retries recorded for `key` since it was last forgotten.
  virtual int NumRequeues(const std::string& key) = 0;
};

}  // namespace kube
