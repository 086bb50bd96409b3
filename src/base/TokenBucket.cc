#include "src/base/TokenBucket.h"

#include <algorithm>

namespace kube {

TokenBucket::TokenBucket(int burst, Nanos interval, Nanos now)
    : unit_(interval.count() > 0 ? interval : Nanos(1)),
      refills_(interval.count() > 0),
      capacity_(static_cast<int64_t>(std::max(burst, 1)) * unit_.count()),
      credit_(capacity_),
      last_(now) {}

void TokenBucket::Refill(Nanos now) {
  if (now <= last_) return;
  if (refills_) credit_ = std::min(capacity_, credit_ + (now - last_).count());
  last_ = now;
}

bool TokenBucket::TryTake(Nanos now) {
  Refill(now);
  if (credit_ < unit_.count()) return false;
  credit_ -= unit_.count();
  return true;
}

TokenBucket::Nanos TokenBucket::Reserve(Nanos now) {
  Refill(now);
  credit_ -= unit_.count();
  if (credit_ >= 0) return Nanos::zero();
  return refills_ ? Nanos(-credit_) : Nanos::max();
}

}  // namespace kube
