#include "controller/health/HealthStatusBuilder.h"

#include <ctime>

#include "src/base/Rfc3339.h"

namespace dra::health {
namespace {

nlohmann::json Common(int64_t generation, const std::string& observed_state, int64_t since_ms,
                      const std::string& rule, const std::string& effect, int64_t matched,
                      const std::vector<std::string>& pods, int64_t pod_count) {
  nlohmann::json status = {{"observedGeneration", generation},
                           {"observedState", observed_state},
                           {"matchedDevices", matched},
                           {"affectedPodCount", pod_count},
                           {"affectedPods", pods}};
  // To the millisecond: the preview and hold-off run from here, and a
  // restarted or new leader must not end them early.
  status["stateSince"] =
      since_ms > 0 ? nlohmann::json(kube::Rfc3339::FormatMillis(since_ms)) : nullptr;
  status["ruleName"] = rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(rule);
  status["effect"] = effect.empty() ? nlohmann::json(nullptr) : nlohmann::json(effect);
  return status;
}

}  // namespace

std::string HealthStatusBuilder::Rfc3339(int64_t seconds_since_epoch) {
  std::time_t t = static_cast<std::time_t>(seconds_since_epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json HealthStatusBuilder::Render(const DesiredStatus& d, const api::DeviceHealth& current,
                                           std::chrono::system_clock::time_point now) {
  nlohmann::json status =
      Common(d.observed_generation, d.observed_state, d.state_since_ms, d.rule_name, d.effect,
             d.matched_devices, d.affected_pods, d.affected_pod_count);
  if (!d.resolved.empty()) status["resolved"] = d.resolved;
  std::string now_text =
      Rfc3339(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count());
  nlohmann::json conditions = nlohmann::json::array();
  for (const auto& c : d.conditions) {
    const auto* old = current.FindCondition(c.type);
    std::string since = old && old->status == c.status && !old->last_transition_time.empty()
                            ? old->last_transition_time
                            : now_text;
    conditions.push_back({{"type", c.type},
                          {"status", c.status},
                          {"reason", c.reason},
                          {"message", c.message},
                          {"observedGeneration", d.observed_generation},
                          {"lastTransitionTime", since}});
  }
  status["conditions"] = conditions;
  return status;
}

nlohmann::json HealthStatusBuilder::Current(const api::DeviceHealth& h) {
  const auto& s = h.status;
  nlohmann::json status =
      Common(s.observed_generation, s.observed_state, s.state_since_ms, s.rule_name, s.effect,
             s.matched_devices, s.affected_pods, s.affected_pod_count);
  if (!s.resolved.empty()) status["resolved"] = s.resolved;
  nlohmann::json conditions = nlohmann::json::array();
  for (const auto& c : s.conditions) {
    conditions.push_back({{"type", c.type},
                          {"status", c.status},
                          {"reason", c.reason},
                          {"message", c.message},
                          {"observedGeneration", s.observed_generation},
                          {"lastTransitionTime", c.last_transition_time}});
  }
  status["conditions"] = conditions;
  return status;
}

}  // namespace dra::health
