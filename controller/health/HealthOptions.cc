#include "controller/health/HealthOptions.h"

#include <mutex>

namespace dra::health {
namespace {

std::mutex& Mutex() {
  static std::mutex mu;
  return mu;
}

HealthOptions& Stored() {
  static HealthOptions options;
  return options;
}

}  // namespace

void HealthOptions::SetConfigured(const HealthOptions& options) {
  std::lock_guard lock(Mutex());
  Stored() = options;
}

HealthOptions HealthOptions::Configured() {
  std::lock_guard lock(Mutex());
  return Stored();
}

}  // namespace dra::health
