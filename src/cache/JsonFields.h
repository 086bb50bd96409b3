#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace kube::json {

// Null-tolerant accessors over simdjson DOM elements for projections: a
// missing key, a null, or a value of another type all read as "absent".

// A JSON null that stays valid for the life of the process.
simdjson::dom::element Null();

// The member `key` of `object`, or Null().
simdjson::dom::element Field(simdjson::dom::element object, std::string_view key);
bool Has(simdjson::dom::element object, std::string_view key);
std::string_view StringOr(simdjson::dom::element object, std::string_view key,
                          std::string_view fallback = "");
int64_t IntOr(simdjson::dom::element object, std::string_view key, int64_t fallback = 0);
bool BoolOr(simdjson::dom::element object, std::string_view key, bool fallback = false);
bool IsObject(simdjson::dom::element e);
bool IsArray(simdjson::dom::element e);

// Seconds since the epoch of an RFC 3339 timestamp ("2026-07-24T09:00:00Z"), 0 if invalid.
int64_t ParseTimestamp(std::string_view rfc3339);

}  // namespace kube::json
