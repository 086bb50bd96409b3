#include "controller/api/DeviceToleration.h"

#include "src/cache/JsonFields.h"
#include "src/proto/ProtoReader.h"

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

DeviceToleration DeviceToleration::Make(std::string key, std::string value, std::string_view op,
                                        std::string_view effect, std::optional<int64_t> seconds) {
  DeviceToleration toleration;
  toleration.key = std::move(key);
  toleration.value = std::move(value);
  if (op == "Equal" || op.empty()) {
    toleration.op = Operator::kEqual;
  } else if (op == "Exists") {
    toleration.op = Operator::kExists;
  } else {
    toleration.op = Operator::kUnknown;
  }
  if (!effect.empty()) {
    toleration.effect = ParseTaintEffect(effect);
    if (*toleration.effect == TaintEffect::kUnknown) toleration.unknown_effect = effect;
  }
  toleration.toleration_seconds = seconds;
  return toleration;
}

kube::Result<DeviceToleration> DeviceToleration::FromJson(simdjson::dom::element object) {
  std::optional<int64_t> seconds;
  int64_t value = 0;
  if (kube::json::Field(object, "tolerationSeconds").get(value) == simdjson::SUCCESS) {
    seconds = value;
  }
  return Make(std::string(kube::json::StringOr(object, "key")),
              std::string(kube::json::StringOr(object, "value")),
              kube::json::StringOr(object, "operator", "Equal"),
              kube::json::StringOr(object, "effect"), seconds);
}

kube::Result<DeviceToleration> DeviceToleration::FromProto(std::string_view message) {
  // resource/v1 DeviceToleration field numbers.
  constexpr uint32_t kKey = 1, kOperator = 2, kValue = 3, kEffect = 4, kSeconds = 5;
  std::string key, value;
  std::string_view op, effect;
  std::optional<int64_t> seconds;
  kube::ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == kSeconds && reader.is_varint()) seconds = reader.AsInt64();
    if (!reader.is_bytes()) continue;
    if (reader.field() == kKey) key = reader.AsString();
    if (reader.field() == kOperator) op = reader.bytes();
    if (reader.field() == kValue) value = reader.AsString();
    if (reader.field() == kEffect) effect = reader.bytes();
  }
  if (!reader.ok()) return reader.status().WithContext("toleration");
  return Make(std::move(key), std::move(value), op, effect, seconds);
}

}  // namespace dra::api
