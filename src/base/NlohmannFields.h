#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kube {

// Reading fields of an nlohmann::json document (src/cache/JsonFields.h does the
// same over simdjson, for projections) that may not have them:
// missing keys, and values of another type, read as null or "".
class NlohmannFields {
 public:
  // object[key], or null when `object` is no object or lacks the key.
  static const nlohmann::json& At(const nlohmann::json& object, const char* key);
  // The string, or "" when `value` is no string.
  static std::string Text(const nlohmann::json& value);
};

}  // namespace kube
