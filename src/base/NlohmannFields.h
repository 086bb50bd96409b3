#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kube {

// Reading fields of an nlohmann::json document (src/cache/JsonFields.h does the
// same over simdjson, for projections) that may not have them:
// missing keys, and values of another type, read as null, "" or 0.
class NlohmannFields {
 public:
  // object[key], or null when `object` is no object or lacks the key.
  static const nlohmann::json& At(const nlohmann::json& object, const char* key);
  // The string, or "" when `value` is no string.
  static std::string Text(const nlohmann::json& value);
  // The string object[key], or "" when there is no such string.
  static std::string StringAt(const nlohmann::json& object, const char* key);
  // The string object[key], or `fallback` when there is no such string.
  static std::string StringOr(const nlohmann::json& object, const char* key,
                              std::string_view fallback);
  // The integer object[key], or 0 when there is no such integer.
  static int64_t IntAt(const nlohmann::json& object, const char* key);
};

}  // namespace kube
