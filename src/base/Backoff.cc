#include "src/base/Backoff.h"

#include <algorithm>

#include "src/base/Jitter.h"
#include "src/base/RealClock.h"

namespace kube {

Backoff::Backoff(BackoffOptions options, std::shared_ptr<Clock> clock)
    : options_(options),
      clock_(clock ? std::move(clock) : RealClock::Shared()),
      current_(options_.initial) {}

std::chrono::milliseconds Backoff::Next() {
  auto now = clock_->Now();
  if (used_ && now - last_ > options_.reset_after) current_ = options_.initial;
  auto base = current_;
  auto grown = std::chrono::milliseconds(
      static_cast<int64_t>(static_cast<double>(current_.count()) * options_.factor));
  current_ = std::clamp(grown, options_.initial, options_.max);
  last_ = now;
  used_ = true;
  return options_.jitter > 0 ? Jitter(base, options_.jitter) : base;
}

void Backoff::Reset() {
  current_ = options_.initial;
  used_ = false;
}

}  // namespace kube
