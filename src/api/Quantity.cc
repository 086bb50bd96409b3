#include "src/api/Quantity.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/base/QuoteForMessage.h"

namespace kube {
namespace {

using Int128 = __int128;

constexpr Int128 kNanosPerUnit = 1'000'000'000;
constexpr Int128 kMaxNanos = Int128{std::numeric_limits<int64_t>::max()} * kNanosPerUnit;
constexpr Int128 kMinNanos = Int128{std::numeric_limits<int64_t>::min()} * kNanosPerUnit;
// Both limits are below 10^28 nano-units, so 29 integer digits are always too many.
constexpr int64_t kOutOfRangeDigits = 29;
// Clamping exponents to this magnitude changes no result for any input that
// fits in memory, and keeps the exponent arithmetic far from int64 overflow.
constexpr int64_t kExponentClamp = int64_t{1} << 40;
// 2^60 < 10^19: a fraction below 10^-19 times any binary suffix stays below 1.
constexpr int64_t kNegligibleFractionZeros = 19;

struct Suffix {
  int64_t decimal_exponent = 0;
  int binary_exponent = 0;
};

struct NamedSuffix {
  std::string_view name;
  Suffix suffix;
};

constexpr NamedSuffix kSuffixes[] = {
    {"", {0, 0}},    {"n", {-9, 0}},  {"u", {-6, 0}},  {"m", {-3, 0}},
    {"k", {3, 0}},   {"M", {6, 0}},   {"G", {9, 0}},   {"T", {12, 0}},
    {"P", {15, 0}},  {"E", {18, 0}},  {"Ki", {0, 10}}, {"Mi", {0, 20}},
    {"Gi", {0, 30}}, {"Ti", {0, 40}}, {"Pi", {0, 50}}, {"Ei", {0, 60}},
};

// The textual pieces of "[+-]whole.fraction suffix".
struct Parts {
  bool negative = false;
  std::string_view whole;
  std::string_view fraction;
  Suffix suffix;
};

// significant_digits × 10^exponent, without leading or trailing zeros.
struct Decimal {
  std::string significant_digits;
  int64_t exponent = 0;
};

// floor(fraction × 2^k) and whether anything is left below 1.
struct FractionProduct {
  Int128 whole = 0;
  bool has_remainder = false;
};

Status ParseError(std::string_view text, const std::string& problem) {
  return Status(StatusCode::kParseError,
                "invalid quantity " + QuoteForMessage(text) + ": " + problem);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view TakeDigits(std::string_view text, size_t& pos) {
  size_t start = pos;
  while (pos < text.size() && IsDigit(text[pos])) ++pos;
  return text.substr(start, pos - start);
}

Result<Suffix> ParseExponent(std::string_view text, std::string_view suffix) {
  std::string_view exponent = suffix.substr(1);  // after 'e' or 'E'
  size_t pos = 0;
  bool negative = false;
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
    negative = exponent[0] == '-';
    ++pos;
  }
  std::string_view digits = TakeDigits(exponent, pos);
  if (digits.empty() || pos != exponent.size()) {
    return ParseError(text, "invalid exponent " + QuoteForMessage(suffix) +
                                " (expected e or E followed by an integer, such as e3 or e-3)");
  }
  int64_t value = 0;
  for (char c : digits) {
    int digit = c - '0';
    if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
      return ParseError(text, "exponent " + QuoteForMessage(suffix) + " is out of range");
    }
    value = value * 10 + digit;
  }
  value = std::min(value, kExponentClamp);
  return Suffix{negative ? -value : value, 0};
}

Result<Suffix> ParseSuffix(std::string_view text, std::string_view suffix) {
  for (const NamedSuffix& known : kSuffixes) {
    if (known.name == suffix) return known.suffix;
  }
  if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E')) return ParseExponent(text, suffix);
  return ParseError(text, "unknown suffix " + QuoteForMessage(suffix) +
                              " (expected one of n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, "
                              "Ei, or an exponent such as e3)");
}

Result<Parts> SplitParts(std::string_view text) {
  if (text.empty()) return ParseError(text, "empty string");
  if (std::any_of(text.begin(), text.end(), IsWhitespace)) {
    return ParseError(text, "whitespace is not allowed");
  }
  Parts parts;
  size_t pos = 0;
  if (text[0] == '+' || text[0] == '-') {
    parts.negative = text[0] == '-';
    ++pos;
  }
  parts.whole = TakeDigits(text, pos);
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    parts.fraction = TakeDigits(text, pos);
    if (pos < text.size() && text[pos] == '.') {
      return ParseError(text, "more than one decimal point");
    }
  }
  if (parts.whole.empty() && parts.fraction.empty()) {
    return ParseError(text, "expected a number with at least one digit");
  }
  KUBE_ASSIGN_OR_RETURN(parts.suffix, ParseSuffix(text, text.substr(pos)));
  return parts;
}

Decimal Normalize(const Parts& parts) {
  std::string digits(parts.whole);
  digits += parts.fraction;
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Decimal{};
  size_t last = digits.find_last_not_of('0');
  auto trailing_zeros = static_cast<int64_t>(digits.size() - 1 - last);
  auto fraction_length = static_cast<int64_t>(parts.fraction.size());
  return Decimal{digits.substr(first, last + 1 - first),
                 parts.suffix.decimal_exponent - fraction_length + trailing_zeros};
}

// Callers keep digits short enough for the result to fit (at most 28 digits).
Int128 DigitsToInt(std::string_view digits) {
  Int128 value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

Int128 PowerOfTen(int64_t exponent) {
  Int128 value = 1;
  for (int64_t i = 0; i < exponent; ++i) value *= 10;
  return value;
}

// fraction is 0.<leading_zeros zeros><digits>, digits ending in a nonzero digit.
FractionProduct MultiplyFraction(std::string_view digits, int64_t leading_zeros,
                                 int binary_exponent) {
  if (digits.empty()) return {};
  if (binary_exponent == 0 || leading_zeros >= kNegligibleFractionZeros) return {0, true};
  std::vector<int> fraction(static_cast<size_t>(leading_zeros), 0);
  for (char c : digits) fraction.push_back(c - '0');
  FractionProduct product;
  for (int step = 0; step < binary_exponent / 10; ++step) {
    int carry = 0;
    for (auto it = fraction.rbegin(); it != fraction.rend(); ++it) {
      int scaled = *it * 1024 + carry;
      *it = scaled % 10;
      carry = scaled / 10;
    }
    product.whole = product.whole * 1024 + carry;
  }
  product.has_remainder =
      std::any_of(fraction.begin(), fraction.end(), [](int d) { return d != 0; });
  return product;
}

// digits × 10^nano_exponent split at the decimal point: an integer part and
// the fraction 0.<fraction_leading_zeros zeros><fraction digits>.
struct NanoSplit {
  Int128 whole = 0;
  std::string_view fraction;
  int64_t fraction_leading_zeros = 0;
};

// Callers ensure digits.size() + nano_exponent < kOutOfRangeDigits.
NanoSplit SplitAtNanoPoint(std::string_view digits, int64_t nano_exponent) {
  if (nano_exponent >= 0) return {DigitsToInt(digits) * PowerOfTen(nano_exponent), {}, 0};
  int64_t whole_length = static_cast<int64_t>(digits.size()) + nano_exponent;
  if (whole_length <= 0) return {0, digits, -whole_length};
  return {DigitsToInt(digits.substr(0, whole_length)), digits.substr(whole_length), 0};
}

// |value| in nano-units, rounded up; nullopt when it exceeds limit.
std::optional<Int128> MagnitudeInNanos(const Decimal& value, int binary_exponent, Int128 limit) {
  std::string_view digits = value.significant_digits;
  if (digits.empty()) return Int128{0};
  int64_t nano_exponent = value.exponent + 9;
  if (static_cast<int64_t>(digits.size()) + nano_exponent >= kOutOfRangeDigits) {
    return std::nullopt;
  }
  NanoSplit split = SplitAtNanoPoint(digits, nano_exponent);
  if (split.whole > (limit >> binary_exponent)) return std::nullopt;
  FractionProduct product =
      MultiplyFraction(split.fraction, split.fraction_leading_zeros, binary_exponent);
  Int128 magnitude = split.whole * (Int128{1} << binary_exponent) + product.whole +
                     (product.has_remainder ? 1 : 0);
  if (magnitude > limit) return std::nullopt;
  return magnitude;
}

bool InRange(Int128 nanos) { return nanos >= kMinNanos && nanos <= kMaxNanos; }

std::string Int128ToString(Int128 value) {
  if (value == 0) return "0";
  using UInt128 = unsigned __int128;
  UInt128 magnitude = value < 0 ? -static_cast<UInt128>(value) : static_cast<UInt128>(value);
  std::string text;
  for (; magnitude != 0; magnitude /= 10) text += static_cast<char>('0' + magnitude % 10);
  if (value < 0) text += '-';
  std::reverse(text.begin(), text.end());
  return text;
}

Status OverflowError(const Quantity& a, std::string_view op, const Quantity& b) {
  return Status(StatusCode::kInvalidArgument, "quantity overflow: " + a.ToString() + " " +
                                                  std::string(op) + " " + b.ToString() +
                                                  " is outside the int64 range of whole units");
}

}  // namespace

Result<Quantity> Quantity::Parse(std::string_view text) {
  Parts parts;
  KUBE_ASSIGN_OR_RETURN(parts, SplitParts(text));
  Int128 limit = parts.negative ? -kMinNanos : kMaxNanos;
  std::optional<Int128> magnitude =
      MagnitudeInNanos(Normalize(parts), parts.suffix.binary_exponent, limit);
  if (!magnitude) {
    return ParseError(text, "out of range (the value must fit in int64 whole units)");
  }
  return Quantity(parts.negative ? -*magnitude : *magnitude);
}

Quantity Quantity::FromInt64(int64_t units) { return Quantity(Int128{units} * kNanosPerUnit); }

int Quantity::Compare(const Quantity& other) const {
  return (nanos() > other.nanos()) - (nanos() < other.nanos());
}

std::optional<int64_t> Quantity::AsInt64() const {
  if (nanos() % kNanosPerUnit != 0) return std::nullopt;
  return static_cast<int64_t>(nanos() / kNanosPerUnit);
}

double Quantity::AsApproximateDouble() const {
  // Converting units and nanos separately keeps the fractional digits that a
  // single int128 -> double conversion of a large value would drop.
  const Int128 units = nanos() / kNanosPerUnit;
  const Int128 fraction_nanos = nanos() % kNanosPerUnit;
  return static_cast<double>(units) + static_cast<double>(fraction_nanos) / 1e9;
}

std::string Quantity::ToString() const {
  struct DecimalSuffix {
    std::string_view name;
    int nano_exponent;
  };
  static constexpr DecimalSuffix kLargestFirst[] = {
      {"E", 27}, {"P", 24}, {"T", 21}, {"G", 18}, {"M", 15},
      {"k", 12}, {"", 9},   {"m", 6},  {"u", 3},  {"n", 0},
  };
  if (nanos() == 0) return "0";
  for (const DecimalSuffix& suffix : kLargestFirst) {
    Int128 unit = PowerOfTen(suffix.nano_exponent);
    if (nanos() % unit == 0) return Int128ToString(nanos() / unit) + std::string(suffix.name);
  }
  return Int128ToString(nanos()) + "n";  // not reached: the last unit is 1
}

Result<Quantity> Quantity::Add(const Quantity& other) const {
  Int128 sum = nanos() + other.nanos();
  if (!InRange(sum)) return OverflowError(*this, "+", other);
  return Quantity(sum);
}

Result<Quantity> Quantity::Sub(const Quantity& other) const {
  Int128 difference = nanos() - other.nanos();
  if (!InRange(difference)) return OverflowError(*this, "-", other);
  return Quantity(difference);
}

}  // namespace kube
