#include "controller/api/DeviceToleration.h"

#include "src/cache/JsonFields.h"

namespace dra::api {

bool DeviceToleration::Tolerates(const DeviceTaint& taint) const {
  if (effect.has_value()) {
    if (*effect != taint.effect) return false;
    if (*effect == TaintEffect::kUnknown && unknown_effect != taint.unknown_effect) return false;
  }
  switch (op) {
    case Operator::kExists:
      return key.empty() || key == taint.key;
    case Operator::kEqual:
      return key == taint.key && value == taint.value;
    case Operator::kUnknown:
      break;
  }
  return false;
}

kube::Result<DeviceToleration> DeviceToleration::FromJson(simdjson::dom::element object) {
  DeviceToleration toleration;
  toleration.key = kube::json::StringOr(object, "key");
  toleration.value = kube::json::StringOr(object, "value");
  std::string_view op = kube::json::StringOr(object, "operator", "Equal");
  if (op == "Equal" || op.empty()) {
    toleration.op = Operator::kEqual;
  } else if (op == "Exists") {
    toleration.op = Operator::kExists;
  } else {
    toleration.op = Operator::kUnknown;
  }
  std::string_view effect = kube::json::StringOr(object, "effect");
  if (!effect.empty()) {
    toleration.effect = ParseTaintEffect(effect);
    if (*toleration.effect == TaintEffect::kUnknown) toleration.unknown_effect = effect;
  }
  int64_t seconds = 0;
  if (kube::json::Field(object, "tolerationSeconds").get(seconds) == simdjson::SUCCESS) {
    toleration.toleration_seconds = seconds;
  }
  return toleration;
}

}  // namespace dra::api
