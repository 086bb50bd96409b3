#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>

#include "src/base/Result.h"

namespace dra::api {

// The effect of a device taint. Values this build does not know are kept as
// kUnknown (with the text in DeviceTaint::unknown_effect) and, as the API
// requires ("Consumers must treat unknown effects like None"), have no effect.
enum class TaintEffect : uint8_t { kNone, kNoSchedule, kNoExecute, kUnknown };

// "None", "NoSchedule", "NoExecute"; kUnknown for anything else.
TaintEffect ParseTaintEffect(std::string_view text);

// resource.k8s.io/v1 DeviceTaint, in ResourceSlice devices and DeviceTaintRule.
struct DeviceTaint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::kNone;
  std::string unknown_effect;  // the raw effect when effect == kUnknown
  int64_t time_added = 0;      // seconds since the epoch, 0 if unset

  // The effect as it acts: kUnknown reads as kNone.
  TaintEffect EffectiveEffect() const {
    return effect == TaintEffect::kUnknown ? TaintEffect::kNone : effect;
  }
  // "None", "NoSchedule", "NoExecute" or "Unknown(<raw>)".
  std::string EffectName() const;

  // Never fails: a missing key or effect reads as empty / Unknown("").
  static kube::Result<DeviceTaint> FromJson(simdjson::dom::element object);
};

}  // namespace dra::api
