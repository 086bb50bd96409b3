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

std::string NlohmannFields::StringAt(const nlohmann::json& object, const char* key) {
  return StringOr(object, key, "");
}

std::string NlohmannFields::StringOr(const nlohmann::json& object, const char* key,
                                     std::string_view fallback) {
  const nlohmann::json& value = At(object, key);
  return value.is_string() ? value.get<std::string>() : std::string(fallback);
}

int64_t NlohmannFields::IntAt(const nlohmann::json& object, const char* key) {
  const nlohmann::json& value = At(object, key);
  return value.is_number_integer() ? value.get<int64_t>() : 0;
}

}  // namespace kube
