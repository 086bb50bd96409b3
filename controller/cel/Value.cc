#include "controller/cel/Value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace dra::cel {

Value Value::FromAttribute(const Attribute& attribute) {
  return std::visit([](const auto& v) { return Value(v); }, attribute);
}

std::string_view Value::TypeName() const {
  static constexpr std::string_view kNames[] = {
      "null_type", "bool", "int",      "uint",   "double",        "string",
      "list",      "map",  "Quantity", "Semver", "error",         "Device",
      "map",       "map",  "map",      "map",    "optional_type", "type"};
  return kNames[data_.index()];
}

namespace {

// As cel-go's string(double): Go's strconv.FormatFloat(d, 'g', -1, 64) —
// the shortest digits that read back exactly, in exponent form when the
// decimal exponent is below -4 or at least 6.
std::string FormatDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  if (ec != std::errc()) return "NaN";
  std::string scientific(buf, ptr);
  int exponent = std::atoi(scientific.c_str() + scientific.find('e') + 1);
  if (exponent < -4 || exponent >= 6) return scientific;
  auto fixed = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::fixed);
  return std::string(buf, fixed.ptr);
}

}  // namespace

std::string Value::DebugString() const {
  if (auto* b = If<bool>()) return *b ? "true" : "false";
  if (auto* i = If<int64_t>()) return std::to_string(*i);
  if (auto* u = If<uint64_t>()) return std::to_string(*u);
  if (auto* d = If<double>()) return FormatDouble(*d);
  if (auto* s = If<std::string>()) return *s;
  if (auto* q = If<kube::Quantity>()) return q->ToString();
  if (auto* v = If<Semver>()) return v->ToString();
  if (auto* e = If<ErrorValue>()) return e->message;
  if (Is<NullValue>()) return "null";
  if (auto* t = If<TypeValue>()) return t->name;
  if (auto* o = If<OptionalValue>())
    return o->value ? "optional(" + o->value->DebugString() + ")" : "optional.none()";
  return std::string(TypeName());
}

}  // namespace dra::cel
