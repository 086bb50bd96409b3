#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kube {

// RFC 3339 timestamps to the millisecond, as Kubernetes objects and
// Alertmanager carry them: optional fractional seconds (Go writes up to nine
// digits) and a "Z" or "+hh:mm" offset.
class Rfc3339 {
 public:
  // Milliseconds since the epoch (UTC); nullopt for anything else. Digits
  // past the millisecond are dropped. Go's zero time ("0001-01-01T00:00:00Z",
  // a firing alert's endsAt) reads as a negative value like any other date
  // before 1970.
  static std::optional<int64_t> ToMillis(std::string_view rfc3339);
  // "2026-07-24T11:05:00.930Z": always three fractional digits, so the text
  // says it is exact to the millisecond.
  static std::string FormatMillis(int64_t millis_since_epoch);
  // True when the text carries a fractional second.
  static bool HasFraction(std::string_view rfc3339);
};

}  // namespace kube
