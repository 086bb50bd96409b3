#include "controller/api/DeviceTaint.h"

#include "src/cache/JsonFields.h"

namespace dra::api {

TaintEffect ParseTaintEffect(std::string_view text) {
  if (text == "None") return TaintEffect::kNone;
  if (text == "NoSchedule") return TaintEffect::kNoSchedule;
  if (text == "NoExecute") return TaintEffect::kNoExecute;
  return TaintEffect::kUnknown;
}

std::string DeviceTaint::EffectName() const {
  switch (effect) {
    case TaintEffect::kNone:
      return "None";
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
    case TaintEffect::kUnknown:
      break;
  }
  return "Unknown(" + unknown_effect + ")";
}

kube::Result<DeviceTaint> DeviceTaint::FromJson(simdjson::dom::element object) {
  DeviceTaint taint;
  taint.key = kube::json::StringOr(object, "key");
  taint.value = kube::json::StringOr(object, "value");
  std::string_view effect = kube::json::StringOr(object, "effect");
  taint.effect = ParseTaintEffect(effect);
  if (taint.effect == TaintEffect::kUnknown) taint.unknown_effect = effect;
  taint.time_added = kube::json::ParseTimestamp(kube::json::StringOr(object, "timeAdded"));
  return taint;
}

}  // namespace dra::api
