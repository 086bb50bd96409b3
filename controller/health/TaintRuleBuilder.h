#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"

namespace dra::health {

inline constexpr char kTaintKey[] = "dra-controller.dev/device-health";
inline constexpr char kManagedByLabel[] = "app.kubernetes.io/managed-by";
inline constexpr char kManagedByValue[] = "dra-controller";
inline constexpr char kOwnerLabel[] = "dra-controller.dev/device-health";
inline constexpr char kFieldManager[] = "dra-controller";

// The DeviceTaintRule a DeviceHealth owns: its deterministic name, the
// server-side-apply body (labels, ownerReference, spec; never status), and
// whether an observed rule is ours and still says what we want.
class TaintRuleBuilder {
 public:
  // "devicehealth-<DeviceHealth name>".
  static std::string RuleName(std::string_view health_name);
  // The taint value: spec.reason (else the state) cut to a valid label value.
  static std::string TaintValue(const api::DeviceHealth& health);
  static nlohmann::json Build(const api::DeviceHealth& health, api::TaintEffect effect);
  // Carries our labels naming `health_name`: rules without them are never touched.
  static bool Owns(const api::DeviceTaintRule& rule, std::string_view health_name);
  // The rule's selector and taint are what Build() would write.
  static bool Matches(const api::DeviceTaintRule& rule, const api::DeviceHealth& health,
                      api::TaintEffect effect);
  // The DeviceHealth a rule of ours belongs to; empty for foreign rules.
  static std::string OwnerOf(const api::DeviceTaintRule& rule);
};

}  // namespace dra::health
