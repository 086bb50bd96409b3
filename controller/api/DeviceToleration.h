#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
  // From its protobuf message (resource/v1 generated.proto); malformed bytes
  // are an error.
  static kube::Result<DeviceToleration> FromProto(std::string_view message);
  // The rules both decoders share: an empty operator is Equal, an unknown
  // one tolerates nothing, an empty effect matches every effect.
  static DeviceToleration Make(std::string key, std::string value, std::string_view op,
                               std::string_view effect, std::optional<int64_t> seconds);
};

}  // namespace dra::api
