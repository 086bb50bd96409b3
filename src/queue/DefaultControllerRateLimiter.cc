#include "src/queue/DefaultControllerRateLimiter.h"

#include <chrono>
#include <vector>

#include "src/queue/BucketRateLimiter.h"
#include "src/queue/ItemExponentialFailureRateLimiter.h"
#include "src/queue/MaxOfRateLimiter.h"

namespace kube {

std::unique_ptr<RateLimiter> DefaultControllerRateLimiter(std::shared_ptr<Clock> clock) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(
      std::make_unique<ItemExponentialFailureRateLimiter>(milliseconds(5), seconds(1000)));
  limiters.push_back(std::make_unique<BucketRateLimiter>(
      BucketRateLimiter::kDefaultQps, BucketRateLimiter::kDefaultBurst, std::move(clock)));
  return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
}

}  // namespace kube
