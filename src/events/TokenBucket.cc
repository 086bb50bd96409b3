#include "src/events/TokenBucket.h"

#include <algorithm>

namespace kube {

TokenBucket::TokenBucket(int burst, std::chrono::seconds refill_interval, TimePoint now)
    : capacity_(std::max(burst, 1)),
      tokens_(capacity_),
      refill_interval_(refill_interval),
      refilled_until_(now) {}

bool TokenBucket::TryTake(TimePoint now) {
  Refill(now);
  if (tokens_ == 0) return false;
  --tokens_;
  return true;
}

void TokenBucket::Refill(TimePoint now) {
  // A full bucket banks nothing, and a clock that steps backwards grants nothing.
  if (tokens_ == capacity_) refilled_until_ = std::max(refilled_until_, now);
  if (refill_interval_.count() <= 0 || now <= refilled_until_) return;
  auto earned = (now - refilled_until_) / refill_interval_;
  if (earned == 0) return;
  tokens_ = static_cast<int>(std::min<int64_t>(capacity_, tokens_ + earned));
  refilled_until_ = tokens_ == capacity_ ? now : refilled_until_ + earned * refill_interval_;
}

}  // namespace kube
