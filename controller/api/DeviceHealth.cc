#include "controller/api/DeviceHealth.h"

#include "controller/api/JsonWalk.h"
#include "src/base/Rfc3339.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::ResourceType DeviceHealth::kResource{"dra-controller.dev", "v1alpha1", "devicehealths",
                                                 false, "DeviceHealth"};
namespace {

using kube::json::Field;
using kube::json::IntOr;
using kube::json::StringOr;

// The latest status.stateSince read as a time: later ones (RFC 3339 reaches
// year 9999) would overflow the nanosecond clock the policy's timers run on.
constexpr int64_t kLatestStateSinceMs = int64_t{4102444800} * 1000;  // 2100-01-01T00:00:00Z

// status.stateSince in milliseconds. The controller writes it to the
// millisecond; a value in whole seconds (as written before it did) was
// rounded down, so it reads as the end of its second: a preview or hold-off
// timed from it may end up to a second late, never early.
int64_t StateSinceMillis(std::string_view text) {
  auto millis = kube::Rfc3339::ToMillis(text);
  if (!millis || *millis <= 0) return 0;
  if (!kube::Rfc3339::HasFraction(text)) *millis += 1000;
  return *millis > kLatestStateSinceMs ? 0 : *millis;
}

DeviceHealth::Status ReadStatus(simdjson::dom::element status) {
  DeviceHealth::Status out;
  out.observed_generation = IntOr(status, "observedGeneration");
  out.observed_state = std::string(StringOr(status, "observedState"));
  out.state_since_ms = StateSinceMillis(StringOr(status, "stateSince"));
  out.resolved = std::string(StringOr(status, "resolved"));
  out.rule_name = std::string(StringOr(status, "ruleName"));
  out.effect = std::string(StringOr(status, "effect"));
  out.matched_devices = IntOr(status, "matchedDevices");
  out.affected_pod_count = IntOr(status, "affectedPodCount");
  json::ForEachElement(Field(status, "affectedPods"), [&](simdjson::dom::element pod) {
    std::string_view text;
    if (pod.get(text) == simdjson::SUCCESS) out.affected_pods.emplace_back(text);
  });
  json::ForEachElement(Field(status, "conditions"), [&](simdjson::dom::element c) {
    out.conditions.push_back({std::string(StringOr(c, "type")), std::string(StringOr(c, "status")),
                              std::string(StringOr(c, "reason")),
                              std::string(StringOr(c, "message")),
                              std::string(StringOr(c, "lastTransitionTime"))});
  });
  return out;
}

}  // namespace

std::optional<HealthState> ParseHealthState(std::string_view text) {
  if (text == "Healthy") return HealthState::kHealthy;
  if (text == "Degraded") return HealthState::kDegraded;
  if (text == "Unhealthy") return HealthState::kUnhealthy;
  if (text == "Unknown") return HealthState::kUnknown;
  return std::nullopt;
}

std::string_view HealthStateName(HealthState state) {
  switch (state) {
    case HealthState::kHealthy:
      return "Healthy";
    case HealthState::kDegraded:
      return "Degraded";
    case HealthState::kUnhealthy:
      return "Unhealthy";
    case HealthState::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

const DeviceHealth::Condition* DeviceHealth::FindCondition(std::string_view type) const {
  for (const auto& c : status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

std::string_view DeviceHealth::Label(std::string_view key) const {
  for (const auto& [k, v] : meta.labels) {
    if (k == key) return v;
  }
  return {};
}

kube::Result<DeviceHealth> DeviceHealth::FromJson(simdjson::dom::element object) {
  DeviceHealth health;
  KUBE_ASSIGN_OR_RETURN(health.meta, kube::ObjectMeta::FromObject(object));
  health.generation = kube::json::IntOr(Field(object, "metadata"), "generation");
  simdjson::dom::element spec = Field(object, "spec");
  health.driver = std::string(StringOr(spec, "driver"));
  health.pool = std::string(StringOr(spec, "pool"));
  health.device = std::string(StringOr(spec, "device"));
  health.uuid = std::string(StringOr(spec, "uuid"));
  health.node = std::string(StringOr(spec, "node"));
  if (kube::json::Has(spec, "index")) health.index = kube::json::IntOr(spec, "index");
  health.state_text = std::string(StringOr(spec, "state"));
  health.state = ParseHealthState(health.state_text);
  health.reason = std::string(StringOr(spec, "reason"));
  health.message = std::string(StringOr(spec, "message"));
  if (kube::json::Has(spec, "effect")) {
    health.effect_text = std::string(StringOr(spec, "effect"));
    health.effect = ParseTaintEffect(health.effect_text);
  }
  health.status = ReadStatus(Field(object, "status"));
  return health;
}

}  // namespace dra::api
