#pragma once

#include <chrono>

namespace kube {

// A token bucket driven by the caller's clock readings instead of a timer:
// it holds at most `burst` tokens and gains one every `refill_interval` (none
// if the interval is not positive). Whole tokens and durations only, so equal
// inputs give equal answers.
class TokenBucket {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  // Starts full at `now`.
  TokenBucket(int burst, std::chrono::seconds refill_interval, TimePoint now);

  // Takes a token if one is available at `now`.
  bool TryTake(TimePoint now);

 private:
  void Refill(TimePoint now);

  int capacity_;
  int tokens_;
  std::chrono::seconds refill_interval_;
  TimePoint refilled_until_;  // time up to which refills have been credited
};

}  // namespace kube
