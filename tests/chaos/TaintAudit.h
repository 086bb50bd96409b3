#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dra::testing {

// Derives, from the DeviceHealth objects alone, the DeviceTaintRules the
// controller must own once every preview and hold-off is over (storm guard
// at 100 %): Degraded -> NoSchedule, Unhealthy -> NoExecute, Unknown ->
// None, Healthy -> no rule; and compares them, and each DeviceHealth's
// status, with what the API server holds. Each problem is one line.
class TaintAudit {
 public:
  // `healths` and `rules` are the `items` of the two LISTs.
  static std::vector<std::string> Check(const nlohmann::json& healths, const nlohmann::json& rules);
  // "" for a state that keeps no rule.
  static std::string ExpectedEffect(const std::string& state);

 private:
  static void CheckRule(const nlohmann::json& health, const nlohmann::json& rule,
                        std::vector<std::string>& problems);
  static void CheckStatus(const nlohmann::json& health, std::vector<std::string>& problems);
};

}  // namespace dra::testing
