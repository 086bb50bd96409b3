#include "src/base/NlohmannFields.h"

namespace kube {

const nlohmann::json& NlohmannFields::At(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string NlohmannFields::Text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : "";
}

}  // namespace kube
