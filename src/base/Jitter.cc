#include "src/base/Jitter.h"

#include <random>

namespace kube {

std::chrono::milliseconds Jitter(std::chrono::milliseconds base, double max_factor) {
  static thread_local std::mt19937 rng(std::random_device{}());
  double factor = std::uniform_real_distribution<double>(1.0, 1.0 + max_factor)(rng);
  return std::chrono::milliseconds(static_cast<long>(static_cast<double>(base.count()) * factor));
}

}  // namespace kube
