#include "controller/api/JsonWalk.h"

#include "src/cache/JsonFields.h"

namespace dra::api::json {

size_t Size(simdjson::dom::element e) {
  simdjson::dom::array array;
  if (e.get(array) == simdjson::SUCCESS) return array.size();
  simdjson::dom::object object;
  if (e.get(object) == simdjson::SUCCESS) return object.size();
  return 0;
}

kube::Result<int64_t> IntField(simdjson::dom::element object, std::string_view key,
                               int64_t fallback, std::string_view path) {
  simdjson::dom::element value = kube::json::Field(object, key);
  if (value.is_null()) return fallback;
  int64_t result = 0;
  if (value.get(result) != simdjson::SUCCESS) {
    return kube::Status(kube::StatusCode::kParseError, std::string(path) + ": expected an integer");
  }
  return result;
}

std::optional<kube::Quantity> QuantityValue(simdjson::dom::element e) {
  std::string_view text;
  if (e.get(text) != simdjson::SUCCESS) return std::nullopt;
  auto quantity = kube::Quantity::Parse(text);
  if (!quantity.ok()) return std::nullopt;
  return *quantity;
}

bool ContainsSlash(std::string_view name) { return name.find('/') != std::string_view::npos; }

std::vector<std::string> CelExpressions(simdjson::dom::element selectors) {
  std::vector<std::string> expressions;
  expressions.reserve(Size(selectors));
  ForEachElement(selectors, [&](simdjson::dom::element selector) {
    std::string_view expression =
        kube::json::StringOr(kube::json::Field(selector, "cel"), "expression");
    if (!expression.empty()) expressions.emplace_back(expression);
  });
  return expressions;
}

}  // namespace dra::api::json
