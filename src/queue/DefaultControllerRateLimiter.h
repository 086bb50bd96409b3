#pragma once

#include <memory>

#include "src/queue/RateLimiter.h"

namespace kube {

// client-go's default for controllers: the slower of a per-key exponential
// backoff (5 ms doubling up to 1000 s) and an overall token bucket (10 qps,
// burst 100) that bounds the total retry rate.
std::unique_ptr<RateLimiter> DefaultControllerRateLimiter(std::shared_ptr<Clock> clock);

}  // namespace kube
