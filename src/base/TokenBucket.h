#pragma once

#include <chrono>
#include <cstdint>

namespace kube {

// The runtime's one token bucket, driven by the caller's clock readings (any
// clock, as time since its epoch) instead of a timer. It holds at most `burst`
// tokens and earns one every `interval` (never, if interval <= 0). Integer
// nanoseconds only, so equal inputs give equal answers; readings that go
// backwards earn nothing. Used by the work queue's overall rate limiter
// (Reserve) and by the event recorder's per-object spam filter (TryTake).
// Not thread-safe.
class TokenBucket {
 public:
  using Nanos = std::chrono::nanoseconds;

  // Starts full at `now`.
  TokenBucket(int burst, Nanos interval, Nanos now);

  // Takes a whole token if one is there at `now`.
  bool TryTake(Nanos now);
  // Takes a token even if it has to be borrowed from the future (like
  // golang.org/x/time/rate's Reserve) and returns how long until it exists;
  // Nanos::max() when the bucket never refills.
  Nanos Reserve(Nanos now);

 private:
  void Refill(Nanos now);

  Nanos unit_;        // one token's worth of credit
  bool refills_;      // interval > 0
  int64_t capacity_;  // burst tokens, in credit
  int64_t credit_;    // tokens x unit; negative while tokens are borrowed
  Nanos last_;        // the latest reading seen
};

}  // namespace kube
