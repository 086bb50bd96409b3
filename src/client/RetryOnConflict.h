#pragma once

#include <chrono>
#include <functional>

#include "src/base/Status.h"

namespace kube {

// Runs `attempt` (which should read the latest object, modify it and write it)
// again while it fails with Conflict, like client-go's RetryOnConflict with
// DefaultRetry: at most 5 attempts, ~10 ms apart with jitter.
Status RetryOnConflict(const std::function<Status()>& attempt, int max_attempts = 5,
                       std::chrono::milliseconds delay = std::chrono::milliseconds(10));

}  // namespace kube
