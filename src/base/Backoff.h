#pragma once

#include <chrono>
#include <memory>

#include "src/base/Clock.h"

namespace kube {

struct BackoffOptions {
  std::chrono::milliseconds initial{800};
  std::chrono::milliseconds max{30000};
  double factor = 2.0;
  double jitter = 1.0;  // each delay is stretched by a random factor in [1, 1 + jitter)
  // A caller that has not asked for a delay for this long starts again from
  // `initial` (client-go's backoff manager resets after 2 minutes).
  std::chrono::milliseconds reset_after{120000};
};

// client-go's exponential backoff manager (0.8 s -> 30 s, factor 2, jitter,
// reset after a quiet period): the one backoff every retry loop in the
// runtime uses. Not thread-safe; each loop owns its own.
class Backoff {
 public:
  explicit Backoff(BackoffOptions options = {}, std::shared_ptr<Clock> clock = nullptr);

  // The delay before the next attempt; grows with every call.
  std::chrono::milliseconds Next();
  // After a success: the next failure waits `initial` again.
  void Reset();

  std::chrono::milliseconds current() const { return current_; }

 private:
  BackoffOptions options_;
  std::shared_ptr<Clock> clock_;
  std::chrono::milliseconds current_;
  Clock::TimePoint last_{};
  bool used_ = false;
};

}  // namespace kube
