#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "controller/alerts/AlertmanagerPayload.h"
#include "controller/api/DeviceHealth.h"
#include "src/base/Result.h"

namespace dra::alerts {

// Which alert labels name the GPU and its state. The defaults are the DCGM
// exporter's labels ("UUID", "Hostname", "gpu").
struct AlertLabels {
  std::string uuid = "UUID";
  std::string host = "Hostname";
  std::string index = "gpu";
  std::string state = "dra_health_state";  // absent: Unhealthy
};

// One alert read as news about one GPU.
struct GpuAlert {
  std::string health_name;  // the DeviceHealth kept for this GPU
  std::string uuid;         // the target: uuid, or node + index
  std::string node;
  std::optional<int64_t> index;
  bool firing = false;
  api::HealthState state = api::HealthState::kUnhealthy;
  std::string reason;   // CamelCase from alertname
  std::string message;  // from the summary or description annotation
  std::string fingerprint;
  int64_t at_ms = 0;  // Alert::EventMillis
};

// Reads the GPU and the state an alert names. Pure; thread-safe.
class AlertMapper {
 public:
  // The longest message (summary) kept, in bytes; longer ones are cut at a
  // character (DeviceHealth's message is at most this long).
  static constexpr size_t kMaxMessage = 1024;

  explicit AlertMapper(AlertLabels labels = {}) : labels_(std::move(labels)) {}

  // kInvalidArgument when the alert names no GPU (neither the UUID label nor
  // both host and index labels, or an index that is no integer) or a state
  // that is not Healthy, Degraded, Unhealthy or Unknown.
  kube::Result<GpuAlert> Map(const Alert& alert) const;

  // "Xid79Error" from "xid 79 error", "GPUXidCritical" as is; "Alert" when
  // nothing is left. At most 128 characters, starting with a letter.
  static std::string ReasonFrom(const std::string& alertname);

 private:
  AlertLabels labels_;
};

}  // namespace dra::alerts
