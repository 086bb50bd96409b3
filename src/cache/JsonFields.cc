#include "src/cache/JsonFields.h"

#include <ctime>

namespace kube::json {

simdjson::dom::element Null() {
  // A default-constructed element is unusable (it points at no document), so
  // absent fields are represented by the null of a document kept for good.
  static simdjson::dom::parser* parser = new simdjson::dom::parser();
  static simdjson::dom::element null = parser->parse(std::string_view("null")).value();
  return null;
}

simdjson::dom::element Field(simdjson::dom::element object, std::string_view key) {
  simdjson::dom::element value;
  if (!IsObject(object) || object[key].get(value) != simdjson::SUCCESS) return Null();
  return value;
}

bool Has(simdjson::dom::element object, std::string_view key) {
  simdjson::dom::element value;
  return IsObject(object) && object[key].get(value) == simdjson::SUCCESS && !value.is_null();
}

std::string_view StringOr(simdjson::dom::element object, std::string_view key,
                          std::string_view fallback) {
  std::string_view value;
  if (!IsObject(object) || object[key].get(value) != simdjson::SUCCESS) return fallback;
  return value;
}

int64_t IntOr(simdjson::dom::element object, std::string_view key, int64_t fallback) {
  int64_t value = 0;
  if (!IsObject(object) || object[key].get(value) != simdjson::SUCCESS) return fallback;
  return value;
}

bool BoolOr(simdjson::dom::element object, std::string_view key, bool fallback) {
  bool value = false;
  if (!IsObject(object) || object[key].get(value) != simdjson::SUCCESS) return fallback;
  return value;
}

bool IsObject(simdjson::dom::element e) { return e.type() == simdjson::dom::element_type::OBJECT; }

bool IsArray(simdjson::dom::element e) { return e.type() == simdjson::dom::element_type::ARRAY; }

int64_t ParseTimestamp(std::string_view rfc3339) {
  std::tm tm{};
  std::string s(rfc3339.substr(0, 19));
  if (s.size() != 19 || strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

}  // namespace kube::json
