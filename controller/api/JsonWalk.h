#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/Quantity.h"
#include "src/base/Result.h"

namespace dra::api::json {

// Helpers shared by the dra::api projections, on top of kube::json: iteration
// that treats a missing key, a null or a value of another type as empty, and
// typed reads that report a wrong type instead of silently defaulting.

// Calls f(element) for each entry of `array` when it is an array.
template <typename F>
void ForEachElement(simdjson::dom::element array, F&& f) {
  simdjson::dom::array items;
  if (array.get(items) != simdjson::SUCCESS) return;
  for (simdjson::dom::element item : items) f(item);
}

// Calls f(key, value) for each member of `object` when it is an object.
template <typename F>
void ForEachMember(simdjson::dom::element object, F&& f) {
  simdjson::dom::object members;
  if (object.get(members) != simdjson::SUCCESS) return;
  for (auto [key, value] : members) f(key, value);
}

// Number of entries of an array or object, 0 for anything else.
size_t Size(simdjson::dom::element e);

// `object[key]` as int64: `fallback` when absent or null, a kParseError naming
// `path` when it holds anything but an integer.
kube::Result<int64_t> IntField(simdjson::dom::element object, std::string_view key,
                               int64_t fallback, std::string_view path);

// A quantity string ("80Gi"); nullopt when absent, not a string or invalid.
std::optional<kube::Quantity> QuantityValue(simdjson::dom::element e);

// The CEL expressions of a DeviceSelector list ([{cel: {expression}}]), in
// order; entries without one are skipped.
std::vector<std::string> CelExpressions(simdjson::dom::element selectors);

// Extended resource names as the pod/node projections keep them.
bool ContainsSlash(std::string_view name);

}  // namespace dra::api::json
