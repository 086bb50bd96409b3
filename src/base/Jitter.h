#pragma once

#include <chrono>

namespace kube {

// client-go's wait.Jitter: `base` stretched by a random factor in
// [1, 1 + max_factor), so that many clients retrying do not move in step.
std::chrono::milliseconds Jitter(std::chrono::milliseconds base, double max_factor);

}  // namespace kube
