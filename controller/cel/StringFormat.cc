#include "controller/cel/StringFormat.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dra::cel {
namespace {

using ListPtr = std::shared_ptr<const ValueList>;
using MapPtr = std::shared_ptr<const ValueMap>;

Value ClauseError(const char* what, const Value& arg) {
  return Value::Error(std::string(what) + " clause can only be used on " +
                      (what[0] == 'f' ? "doubles" : "integers") + ", was given " +
                      std::string(arg.TypeName()));
}

std::string Printf(const char* format, auto value) {
  int n = std::snprintf(nullptr, 0, format, value);
  if (n <= 0) return "";
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), format, value);
  out.pop_back();
  return out;
}

std::string Binary(uint64_t v) {
  if (v == 0) return "0";
  std::string out;
  for (; v != 0; v >>= 1) out.insert(out.begin(), static_cast<char>('0' + (v & 1)));
  return out;
}

// Go's %x of a string: two hex digits per byte.
std::string HexBytes(const std::string& s, bool upper) {
  std::string out;
  for (unsigned char c : s) out += Printf(upper ? "%02X" : "%02x", static_cast<unsigned>(c));
  return out;
}

// cel-go formats %f and %e with the en_US number printer: thousands
// separators, and the exponent as "×10" with superscript digits.
std::string Grouped(const std::string& fixed) {
  size_t start = fixed[0] == '-' ? 1 : 0;
  size_t end = fixed.find('.');
  if (end == std::string::npos) end = fixed.size();
  std::string out = fixed.substr(0, start);
  for (size_t i = start; i < end; ++i) {
    if (i > start && (end - i) % 3 == 0) out += ',';
    out += fixed[i];
  }
  return out + fixed.substr(end);
}

std::string Superscript(const std::string& scientific) {
  static constexpr const char* kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  size_t e = scientific.find('e');
  if (e == std::string::npos || e + 2 > scientific.size()) return scientific;
  std::string out = scientific.substr(0, e) + "×10";
  if (scientific[e + 1] == '-') out += "⁻";
  for (size_t i = e + 2; i < scientific.size(); ++i) out += kDigits[scientific[i] - '0'];
  return out;
}

}  // namespace

Value StringFormat::Format(const std::string& format, const ValueList& args) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (++i == format.size()) return Value::Error("unexpected end of string");
    if (format[i] == '%') {
      out += '%';
      continue;
    }
    std::optional<int> precision;
    if (format[i] == '.') {
      int p = 0;
      size_t digits = 0;
      for (++i; i < format.size() && format[i] >= '0' && format[i] <= '9'; ++i, ++digits)
        p = std::min(p * 10 + (format[i] - '0'), kMaxPrecision + 1);
      if (digits == 0 || i == format.size())
        return Value::Error("could not find end of precision specifier");
      if (p > kMaxPrecision)
        return Value::Error("precision exceeds maximum allowed precision " +
                            std::to_string(kMaxPrecision));
      precision = p;
    }
    if (next >= args.size()) return Value::Error("index " + std::to_string(next) + " out of range");
    Value piece = Clause(format[i], precision, args[next++]);
    if (piece.IsError()) return piece;
    out += piece.As<std::string>();
  }
  return Value(std::move(out));
}

Value StringFormat::Clause(char verb, std::optional<int> precision, const Value& arg) {
  auto* i = arg.If<int64_t>();
  auto* u = arg.If<uint64_t>();
  switch (verb) {
    case 's':
      return AsString(arg, false);
    case 'd':
      if (i) return Value(std::to_string(*i));
      if (u) return Value(std::to_string(*u));
      return ClauseError("decimal", arg);
    case 'f':
    case 'e': {
      // cel-go also takes the strings "NaN", "Infinity" and "-Infinity".
      auto* text = arg.If<std::string>();
      bool special = text && (*text == "NaN" || *text == "Infinity" || *text == "-Infinity");
      if (!arg.Is<double>() && !special)
        return ClauseError(verb == 'f' ? "fixed-point" : "scientific", arg);
      double d = special ? std::strtod(text->c_str(), nullptr) : arg.As<double>();
      if (std::isnan(d)) return Value("NaN");
      if (std::isinf(d)) return Value(d > 0 ? "∞" : "-∞");
      std::string spec = "%." + std::to_string(precision.value_or(6)) + verb;
      std::string printed = Printf(spec.c_str(), d);
      return Value(verb == 'f' ? Grouped(printed) : Superscript(printed));
    }
    case 'b':
      if (i)
        return Value((*i < 0 ? "-" : "") + Binary(*i < 0 ? 0 - static_cast<uint64_t>(*i) : *i));
      if (u) return Value(Binary(*u));
      if (auto* b = arg.If<bool>()) return Value(*b ? "1" : "0");
      return ClauseError("binary", arg);
    case 'x':
    case 'X': {
      bool upper = verb == 'X';
      if (auto* s = arg.If<std::string>()) return Value(HexBytes(*s, upper));
      if (i && *i < 0)
        return Value("-" +
                     Printf(upper ? "%llX" : "%llx", 0ULL - static_cast<unsigned long long>(*i)));
      if (i) return Value(Printf(upper ? "%llX" : "%llx", static_cast<unsigned long long>(*i)));
      if (u) return Value(Printf(upper ? "%llX" : "%llx", static_cast<unsigned long long>(*u)));
      return ClauseError("hex", arg);
    }
    case 'o':
      if (i && *i < 0)
        return Value("-" + Printf("%llo", 0ULL - static_cast<unsigned long long>(*i)));
      if (i) return Value(Printf("%llo", static_cast<unsigned long long>(*i)));
      if (u) return Value(Printf("%llo", static_cast<unsigned long long>(*u)));
      return ClauseError("octal", arg);
    default:
      return Value::Error(std::string("unrecognized formatting clause \"") + verb + "\"");
  }
}

// %s: scalars as string() gives them; lists and maps with their string
// elements quoted, as cel-go prints them.
Value StringFormat::AsString(const Value& arg, bool quoted) {
  if (auto* s = arg.If<std::string>()) return Value(quoted ? "\"" + *s + "\"" : *s);
  if (arg.Is<NullValue>() || arg.Is<bool>() || arg.Is<int64_t>() || arg.Is<double>() ||
      arg.Is<TypeValue>())
    return Value(arg.DebugString());
  if (auto* u = arg.If<uint64_t>()) return Value(std::to_string(*u));
  auto join = [&](auto& items, auto render) -> Value {
    std::string out;
    for (const auto& item : items) {
      Value piece = render(item);
      if (piece.IsError()) return piece;
      out += (out.empty() ? "" : ", ") + piece.template As<std::string>();
    }
    return Value(std::move(out));
  };
  if (auto* l = arg.If<ListPtr>()) {
    Value body = join(**l, [](const Value& v) { return AsString(v, true); });
    return body.IsError() ? body : Value("[" + body.As<std::string>() + "]");
  }
  if (auto* m = arg.If<MapPtr>()) {
    Value body = join(**m, [](const std::pair<Value, Value>& e) {
      Value k = AsString(e.first, true), v = AsString(e.second, true);
      if (k.IsError()) return k;
      if (v.IsError()) return v;
      return Value(k.As<std::string>() + ": " + v.As<std::string>());
    });
    return body.IsError() ? body : Value("{" + body.As<std::string>() + "}");
  }
  return Value::Error(
      "string clause can only be used on strings, bools, bytes, ints, doubles, "
      "maps, lists, types, durations, and timestamps, was given " +
      std::string(arg.TypeName()));
}

}  // namespace dra::cel
