#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>

#include "controller/api/DeviceTaint.h"
#include "src/base/Result.h"

namespace dra::api {

// resource.k8s.io/v1 DeviceToleration (claim requests and allocation results).
struct DeviceToleration {
  // kUnknown: an operator this build does not know; such a toleration
  // tolerates nothing.
  enum class Operator : uint8_t { kEqual, kExists, kUnknown };

  std::string key;  // empty with kExists: every key
  std::string value;
  Operator op = Operator::kEqual;
  std::optional<TaintEffect> effect;  // nullopt: every effect
  std::string unknown_effect;         // raw text when effect == kUnknown
  std::optional<int64_t> toleration_seconds;

  // Whether this toleration matches `taint` (key, value, effect).
  bool Tolerates(const DeviceTaint& taint) const;

  // Never fails; a non-integer tolerationSeconds reads as unset.
  static kube::Result<DeviceToleration> FromJson(simdjson::dom::element object);
};

}  // namespace dra::api
