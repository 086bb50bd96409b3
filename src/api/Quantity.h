#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/Result.h"

namespace kube {

// A Kubernetes resource quantity ("500m", "1.5Gi", "1e3"), held exactly as a
// signed count of nano-units (10^-9), the finest precision Kubernetes keeps.
//
// Range: whole units must fit in int64, i.e. the value lies in
// [-2^63, 2^63 - 1]; anything beyond is a parse error. Kubernetes instead
// caps the magnitude of binary-suffixed values at 2^63 - 1 (so "-8Ei" is
// -(2^63 - 1) there and -2^63 here) and keeps decimal values unbounded.
//
// Rounding: digits finer than 1n round away from zero ("1e-10" is 1n,
// "-1e-10" is -1n, "-1.5n" is -2n). This is what Kubernetes' ParseQuantity
// does: it rounds the magnitude up, so that asking for a tiny amount never
// yields zero and Parse("-x") is always the negation of Parse("x").
class Quantity {
 public:
  // Zero.
  Quantity() = default;

  // Grammar: [+-] digits [. digits] suffix, with at least one digit, where
  // suffix is one of n u m "" k M G T P E (powers of 1000), Ki Mi Gi Ti Pi Ei
  // (powers of 1024), or e/E followed by a signed integer (power of ten).
  // Unlike Kubernetes, "-", "+" and "." without any digit are rejected, and
  // exponents are taken at face value (Kubernetes truncates them to int32).
  static Result<Quantity> Parse(std::string_view text);

  static Quantity FromInt64(int64_t units);

  // -1, 0 or 1, exactly.
  int Compare(const Quantity& other) const;
  friend bool operator==(const Quantity&, const Quantity&) = default;
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.nanos() <=> b.nanos();
  }

  // The value when it is a whole number of units (always fits in int64).
  std::optional<int64_t> AsInt64() const;
  double AsApproximateDouble() const;
  bool IsZero() const { return high_ == 0 && low_ == 0; }
  int Sign() const { return (nanos() > 0) - (nanos() < 0); }
  // The exact value in nano-units.
  __int128 nanos() const {
    auto bits = static_cast<unsigned __int128>(static_cast<uint64_t>(high_)) << 64 | low_;
    return static_cast<__int128>(bits);
  }

  // Canonical form: an integer mantissa followed by the largest decimal SI
  // suffix (n u m "" k M G T P E) that keeps the mantissa an integer, e.g.
  // "1500m", "1k", "1024" (for 1Ki), "-3n", "0". This is Kubernetes' DecimalSI
  // rendering; binary suffixes are never produced because the original
  // format is not kept. Parse(ToString()) always yields an equal Quantity.
  std::string ToString() const;

  // Exact sum/difference; an error (kInvalidArgument) when the result leaves
  // the int64 range of whole units.
  Result<Quantity> Add(const Quantity& other) const;
  Result<Quantity> Sub(const Quantity& other) const;

 private:
  explicit Quantity(__int128 nanos)
      : low_(static_cast<uint64_t>(nanos)), high_(static_cast<int64_t>(nanos >> 64)) {}

  // The nano-units as two halves rather than one __int128: 8-byte alignment
  // keeps a (name, Quantity) pair at 24 bytes instead of 32 in every device's
  // capacity list.
  uint64_t low_ = 0;
  int64_t high_ = 0;
};

}  // namespace kube
