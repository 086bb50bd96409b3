#pragma once

#include <string>

#include "src/base/Status.h"

namespace dra::health {

// Asks the API server to evict one Pod (the Eviction API, which honours
// PodDisruptionBudgets). kTooManyRequests: a budget forbids it now;
// kNotFound or kConflict: that Pod (by UID) is gone.
class PodEvictor {
 public:
  virtual ~PodEvictor() = default;
  virtual kube::Status Evict(const std::string& namespace_name, const std::string& name,
                             const std::string& uid) = 0;
};

}  // namespace dra::health
