#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "controller/api/DeviceTaint.h"
#include "controller/api/DeviceTaintRule.h"

namespace dra::inventory {

// Where one of a device's taints comes from: the DRA driver published it in
// the device's ResourceSlice entry, or a DeviceTaintRule selects the device.
// The allocator treats both alike; an operator needs to tell them apart.
struct TaintSource {
  enum class Kind : uint8_t { kDriver, kRule };

  Kind kind = Kind::kDriver;
  // kRule: the rule itself, so a caller can tell dra-controller's own rules
  // from foreign ones by their labels; null for kDriver.
  std::shared_ptr<const api::DeviceTaintRule> rule;

  bool driver() const { return kind == Kind::kDriver; }
  // The rule's name; "" for kDriver.
  std::string_view RuleName() const;
  // "driver" or "rule": the `source` of `devices -o json` and of the metrics.
  std::string_view Label() const;
  // "driver" or "rule <name>".
  std::string Describe() const;

  // "key=value:Effect" ("key:Effect" without a value).
  static std::string TaintText(const api::DeviceTaint& taint);
  // "key=value:Effect (driver)" or "key=value:Effect (rule <name>)".
  static std::string TaintText(const api::DeviceTaint& taint, const TaintSource& source);
};

}  // namespace dra::inventory
