#include "tests/chaos/TaintAudit.h"

#include <map>

namespace dra::testing {
namespace {

using nlohmann::json;

constexpr char kManagedBy[] = "app.kubernetes.io/managed-by";
constexpr char kHealthLabel[] = "dra-controller.dev/device-health";

std::string Str(const json& object, const std::string& pointer) {
  return object.value(json::json_pointer(pointer), std::string());
}

std::string Label(const json& object, const std::string& key) {
  return object.value("/metadata/labels"_json_pointer, json::object()).value(key, "");
}

std::string Condition(const json& health, const std::string& type, const std::string& field) {
  for (const auto& c : health.value("/status/conditions"_json_pointer, json::array())) {
    if (c.value("type", "") == type) return c.value(field, "");
  }
  return "";
}

}  // namespace

std::string TaintAudit::ExpectedEffect(const std::string& state) {
  if (state == "Degraded") return "NoSchedule";
  if (state == "Unhealthy") return "NoExecute";
  if (state == "Unknown") return "None";
  return "";
}

std::vector<std::string> TaintAudit::Check(const json& healths, const json& rules) {
  std::vector<std::string> problems;
  std::map<std::string, json> by_owner;  // DeviceHealth name -> its rule
  for (const auto& rule : rules) {
    if (Label(rule, kManagedBy) != "dra-controller") {
      continue;
    }
    std::string owner = Label(rule, kHealthLabel);
    std::string name = Str(rule, "/metadata/name");
    if (by_owner.contains(owner)) {
      problems.push_back("duplicate DeviceTaintRules for DeviceHealth " + owner + ": " +
                         Str(by_owner[owner], "/metadata/name") + " and " + name);
    }
    by_owner[owner] = rule;
  }
  for (const auto& health : healths) {
    std::string name = Str(health, "/metadata/name");
    std::string effect = ExpectedEffect(Str(health, "/spec/state"));
    auto rule = by_owner.find(name);
    if (effect.empty() && rule != by_owner.end()) {
      problems.push_back("stale taint: DeviceHealth " + name + " is " + Str(health, "/spec/state") +
                         " but rule " + Str(rule->second, "/metadata/name") + " is still there");
    } else if (!effect.empty() && rule == by_owner.end()) {
      problems.push_back("lost taint: DeviceHealth " + name + " is " + Str(health, "/spec/state") +
                         " and has no rule");
    } else if (!effect.empty()) {
      CheckRule(health, rule->second, problems);
    }
    if (rule != by_owner.end()) by_owner.erase(rule);
    CheckStatus(health, problems);
  }
  for (const auto& [owner, rule] : by_owner) {
    problems.push_back("orphaned rule " + Str(rule, "/metadata/name") + ": its DeviceHealth " +
                       owner + " does not exist");
  }
  return problems;
}

void TaintAudit::CheckRule(const json& health, const json& rule,
                           std::vector<std::string>& problems) {
  std::string name = Str(health, "/metadata/name");
  std::string effect = ExpectedEffect(Str(health, "/spec/state"));
  auto wrong = [&](const std::string& what, const std::string& got, const std::string& want) {
    if (got != want) {
      problems.push_back("rule of " + name + ": " + what + " is '" + got + "', expected '" + want +
                         "'");
    }
  };
  wrong("name", Str(rule, "/metadata/name"), "devicehealth-" + name);
  wrong("effect", Str(rule, "/spec/taint/effect"), effect);
  wrong("taint value", Str(rule, "/spec/taint/value"), Str(health, "/spec/reason"));
  wrong("driver", Str(rule, "/spec/deviceSelector/driver"), Str(health, "/spec/driver"));
  wrong("pool", Str(rule, "/spec/deviceSelector/pool"), Str(health, "/spec/pool"));
  wrong("device", Str(rule, "/spec/deviceSelector/device"), Str(health, "/spec/device"));
  std::string owner_uid;
  for (const auto& ref : rule.value("/metadata/ownerReferences"_json_pointer, json::array())) {
    if (ref.value("kind", "") == "DeviceHealth") owner_uid = ref.value("uid", "");
  }
  wrong("owner uid", owner_uid, Str(health, "/metadata/uid"));
}

void TaintAudit::CheckStatus(const json& health, std::vector<std::string>& problems) {
  std::string name = Str(health, "/metadata/name");
  std::string state = Str(health, "/spec/state");
  std::string effect = ExpectedEffect(state);
  auto wrong = [&](const std::string& what, const std::string& got, const std::string& want) {
    if (got != want) {
      problems.push_back("status of " + name + ": " + what + " is '" + got + "', expected '" +
                         want + "'");
    }
  };
  int64_t generation = health.value("/metadata/generation"_json_pointer, int64_t{0});
  int64_t observed = health.value("/status/observedGeneration"_json_pointer, int64_t{-1});
  if (observed != generation) {
    problems.push_back("status of " + name + ": observedGeneration " + std::to_string(observed) +
                       " != generation " + std::to_string(generation));
  }
  wrong("observedState", Str(health, "/status/observedState"), state);
  wrong("effect", Str(health, "/status/effect"), effect);
  wrong("ruleName", Str(health, "/status/ruleName"), effect.empty() ? "" : "devicehealth-" + name);
  wrong("Tainted", Condition(health, "Tainted", "status"), effect.empty() ? "False" : "True");
}

}  // namespace dra::testing
