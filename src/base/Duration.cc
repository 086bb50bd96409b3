#include "src/base/Duration.h"

#include <cmath>
#include <string>

namespace kube {
namespace {

// Milliseconds per unit, or a negative value for an unknown unit.
double UnitMillis(std::string_view unit) {
  if (unit == "ns") return 1e-6;
  if (unit == "us" || unit == "µs") return 1e-3;
  if (unit == "ms") return 1;
  if (unit == "s") return 1e3;
  if (unit == "m") return 60e3;
  if (unit == "h") return 3600e3;
  return -1;
}

Status Invalid(std::string_view text, const std::string& why) {
  return Status(StatusCode::kInvalidArgument, "invalid duration \"" + std::string(text) +
                                                  "\": " + why + " (e.g. 15s, 500ms, 1m30s)");
}

}  // namespace

Result<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  if (text == "0") return std::chrono::milliseconds(0);
  if (text.empty()) return Invalid(text, "empty");
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      ++i;
    if (i == start) return Invalid(text, "expected a number at position " + std::to_string(start));
    std::string number(text.substr(start, i - start));
    size_t unit_start = i;
    while (i < text.size() && !std::isdigit(static_cast<unsigned char>(text[i])) && text[i] != '.')
      ++i;
    double per_unit = UnitMillis(text.substr(unit_start, i - unit_start));
    if (per_unit < 0) return Invalid(text, "missing or unknown unit");
    char* end = nullptr;
    double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size())
      return Invalid(text, "bad number \"" + number + "\"");
    total += value * per_unit;
  }
  if (!std::isfinite(total) || total > 1e15) return Invalid(text, "out of range");
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(total)));
}

}  // namespace kube
