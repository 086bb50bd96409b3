#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "src/base/Result.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// The health an operator or a monitoring tool states for a device or pool.
enum class HealthState : uint8_t { kHealthy, kDegraded, kUnhealthy, kUnknown };

// "Healthy", "Degraded", "Unhealthy", "Unknown"; nullopt for anything else.
std::optional<HealthState> ParseHealthState(std::string_view text);
std::string_view HealthStateName(HealthState state);

// dra-controller.dev/v1alpha1 DeviceHealth (cluster-scoped): the spec that
// names the device(s) and their state, and the status the health reconciler
// writes back (kept so it can write only what changed and resume after a
// restart from what it wrote).
struct DeviceHealth {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;

  struct Condition {
    std::string type;
    std::string status;
    std::string reason;
    std::string message;
    std::string last_transition_time;  // RFC 3339, as written
    friend bool operator==(const Condition&, const Condition&) = default;
  };

  struct Status {
    int64_t observed_generation = 0;
    std::string observed_state;  // the spec.state the timers below refer to
    // When the controller first saw `observed_state`, in milliseconds since
    // the epoch; 0 if unset, invalid or after 2100.
    int64_t state_since_ms = 0;
    // The device the target resolved to, "<driver>/<pool>/<device>"
    // ("<driver>/<pool>/*" for a whole pool), "not found" or
    // "ambiguous: N devices", as last written.
    std::string resolved;
    std::string rule_name;
    std::string effect;  // effect in force: "", None, NoSchedule, NoExecute
    int64_t matched_devices = 0;
    int64_t affected_pod_count = 0;
    std::vector<std::string> affected_pods;
    std::vector<Condition> conditions;
  };

  kube::ObjectMeta meta;
  int64_t generation = 0;  // metadata.generation, reported back as observedGeneration
  // The target, in one of three forms (the CRD admits exactly one):
  //   driver + pool [+ device]: by name (no device: the whole pool);
  //   uuid [+ driver]: the device whose UUID attribute has this value;
  //   node + index [+ driver]: the device of that node with that index attribute.
  std::string driver;
  std::string pool;
  std::string device;  // empty: the whole pool
  std::string uuid;
  std::string node;
  std::optional<int64_t> index;
  // nullopt when spec.state holds a value this build does not know
  // (the CRD refuses those; the reconciler reports them instead of guessing).
  std::optional<HealthState> state;
  std::string state_text;
  std::string reason;
  std::string message;
  std::optional<TaintEffect> effect;  // spec.effect override, if any
  std::string effect_text;
  Status status;

  const Condition* FindCondition(std::string_view type) const;
  // Whether the target names a pool (and maybe a device) directly rather
  // than by an attribute the inventory must look up.
  bool NamesPool() const { return !pool.empty(); }
  // The value of metadata.labels[key], or "".
  std::string_view Label(std::string_view key) const;

  // Fails only without metadata.name; missing fields read as empty.
  static kube::Result<DeviceHealth> FromJson(simdjson::dom::element object);
};

}  // namespace dra::api
