#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"

namespace dra::health {

struct ConditionValue {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  std::string message;
};

// The status the reconciler wants on a DeviceHealth.
struct DesiredStatus {
  int64_t observed_generation = 0;
  std::string observed_state;
  int64_t state_since_ms = 0;  // milliseconds since the epoch
  std::string resolved;        // status.resolved
  std::string rule_name;       // empty without a rule
  std::string effect;          // empty without a rule
  int64_t matched_devices = 0;
  std::vector<std::string> affected_pods;  // already capped
  int64_t affected_pod_count = 0;
  std::vector<ConditionValue> conditions;
};

// Renders DeviceHealth status as JSON, keeping a condition's
// lastTransitionTime while its status stays the same, so an unchanged status
// renders identically and is not written again.
class HealthStatusBuilder {
 public:
  static std::string Rfc3339(int64_t seconds_since_epoch);
  static nlohmann::json Render(const DesiredStatus& desired, const api::DeviceHealth& current,
                               std::chrono::system_clock::time_point now);
  // The status as it is now, rendered the same way, for comparison.
  static nlohmann::json Current(const api::DeviceHealth& current);
};

}  // namespace dra::health
