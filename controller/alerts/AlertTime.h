#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dra::alerts {

// Alertmanager's timestamps: RFC 3339 with optional fractional seconds (Go
// writes up to nine digits) and a "Z" or "+hh:mm" offset.
class AlertTime {
 public:
  // Milliseconds since the epoch (UTC); nullopt for anything else. Go's zero
  // time ("0001-01-01T00:00:00Z", a firing alert's endsAt) reads as a
  // negative value like any other date before 1970.
  static std::optional<int64_t> ToMillis(std::string_view rfc3339);
};

}  // namespace dra::alerts
