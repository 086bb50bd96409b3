#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "src/base/Status.h"

namespace dra::health {

// The writes the health reconciler makes, behind an interface so the policy
// can be tested without an API server (RestHealthWriter is the real one).
class HealthWriter {
 public:
  virtual ~HealthWriter() = default;
  // Server-side apply of a DeviceTaintRule body with our field manager.
  virtual kube::Status ApplyRule(const nlohmann::json& rule) = 0;
  // Deletes our rule, only if its uid is still `uid`; gone counts as done.
  virtual kube::Status DeleteRule(const std::string& name, const std::string& uid) = 0;
  // Merge-patches the status subresource of a DeviceHealth with `status`.
  virtual kube::Status PatchStatus(const std::string& name, const nlohmann::json& status) = 0;
};

}  // namespace dra::health
