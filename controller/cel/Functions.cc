#include "controller/cel/Functions.h"

#include <charconv>
#include <cmath>

#include "controller/cel/ListsExtension.h"
#include "controller/cel/ListsLibrary.h"
#include "controller/cel/Operators.h"
#include "controller/cel/Optionals.h"
#include "controller/cel/Regex.h"
#include "controller/cel/StringsExtension.h"

namespace dra::cel {
namespace {

Value NoOverload(const Node& call, const std::vector<Value>& args) {
  std::vector<const Value*> pointers;
  pointers.reserve(args.size());
  for (const Value& arg : args) pointers.push_back(&arg);
  return Operators::NoOverload(call.name, pointers);
}

bool Shape(const Node& call, const std::vector<Value>& args, bool method, size_t count) {
  return call.has_target == method && args.size() == count;
}

int64_t CodePoints(const std::string& s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string MapAscii(std::string s, bool upper) {
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

template <typename T>
std::optional<T> ParseInteger(const std::string& s) {
  T v{};
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

Value CompareResult(const Node& call, int c) {
  if (call.function == Function::kCompareTo) return Value(static_cast<int64_t>(c));
  if (call.function == Function::kIsGreaterThan) return Value(c > 0);
  return Value(c < 0);
}

Value ToInt(const Value& v) {
  if (v.Is<int64_t>()) return v;
  if (auto* u = v.If<uint64_t>())
    return *u > static_cast<uint64_t>(INT64_MAX) ? Value::Error("int range error")
                                                 : Value(static_cast<int64_t>(*u));
  if (auto* d = v.If<double>()) {
    if (!std::isfinite(*d) || *d <= -9223372036854775808.0 || *d >= 9223372036854775808.0)
      return Value::Error("int range error");
    return Value(static_cast<int64_t>(*d));
  }
  if (auto* s = v.If<std::string>()) {
    auto i = ParseInteger<int64_t>(*s);
    return i ? Value(*i) : Value::Error("cannot convert '" + *s + "' to int");
  }
  return Value();
}

Value ToUint(const Value& v) {
  if (v.Is<uint64_t>()) return v;
  if (auto* i = v.If<int64_t>())
    return *i < 0 ? Value::Error("uint range error") : Value(static_cast<uint64_t>(*i));
  if (auto* d = v.If<double>()) {
    if (!std::isfinite(*d) || *d <= -1.0 || *d >= 18446744073709551616.0)
      return Value::Error("uint range error");
    return Value(static_cast<uint64_t>(*d));
  }
  if (auto* s = v.If<std::string>()) {
    auto u = ParseInteger<uint64_t>(*s);
    return u ? Value(*u) : Value::Error("cannot convert '" + *s + "' to uint");
  }
  return Value();
}

// bool(): CEL accepts these spellings (Go's strconv.ParseBool).
Value ToBool(const Value& v) {
  if (v.Is<bool>()) return v;
  auto* s = v.If<std::string>();
  if (!s) return Value();
  static constexpr std::string_view kTrue[] = {"1", "t", "T", "true", "TRUE", "True"};
  static constexpr std::string_view kFalse[] = {"0", "f", "F", "false", "FALSE", "False"};
  for (auto t : kTrue)
    if (*s == t) return Value(true);
  for (auto f : kFalse)
    if (*s == f) return Value(false);
  return Value::Error("type conversion error from 'string' to 'bool'");
}

Value ToDouble(const Value& v) {
  if (v.Is<double>()) return v;
  if (auto* i = v.If<int64_t>()) return Value(static_cast<double>(*i));
  if (auto* u = v.If<uint64_t>()) return Value(static_cast<double>(*u));
  if (auto* s = v.If<std::string>()) {
    double d = 0;
    auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), d);
    if (s->empty() || ec != std::errc() || ptr != s->data() + s->size())
      return Value::Error("cannot convert '" + *s + "' to double");
    return Value(d);
  }
  return Value();
}

// quantity(s), isQuantity(s), semver(s[, normalize]), isSemver(s[, normalize]).
Value ParseText(const Node& call, const std::vector<Value>& args) {
  bool quantity = call.function == Function::kQuantity || call.function == Function::kIsQuantity;
  bool check = call.function == Function::kIsQuantity || call.function == Function::kIsSemver;
  bool with_flag = !quantity && Shape(call, args, false, 2) && args[1].Is<bool>();
  if (!(Shape(call, args, false, 1) || with_flag) || !args[0].Is<std::string>())
    return NoOverload(call, args);
  const std::string& text = args[0].As<std::string>();
  if (quantity) {
    auto q = kube::Quantity::Parse(text);
    if (check) return Value(q.ok());
    return q.ok() ? Value(*q) : Value::Error("invalid quantity: '" + text + "'");
  }
  bool normalize = with_flag && args[1].As<bool>();
  auto v = normalize ? Semver::ParseNormalized(text) : Semver::Parse(text);
  if (check) return Value(v.ok());
  return v.ok() ? Value(*v) : Value::Error(v.status().message());
}

}  // namespace

Value Functions::Call(const Node& call, const std::vector<Value>& args) {
  switch (call.function) {
    case Function::kSize:
      return Size(call, args);
    case Function::kStartsWith:
    case Function::kEndsWith:
    case Function::kContains:
    case Function::kMatches:
    case Function::kLowerAscii:
    case Function::kUpperAscii:
      return String(call, args);
    case Function::kQuantity:
    case Function::kIsQuantity:
    case Function::kSemver:
    case Function::kIsSemver:
      return Semver(call, args);
    case Function::kInt:
    case Function::kUint:
    case Function::kDouble:
    case Function::kString:
    case Function::kBool:
    case Function::kDyn:
    case Function::kType:
      return Convert(call, args);
    case Function::kExtension:
      return Extension(call, args);
    default:
      break;
  }
  if (!args.empty() && call.has_target && args[0].Is<dra::cel::Semver>()) return Semver(call, args);
  return Quantity(call, args);
}

Value Functions::Extension(const Node& call, const std::vector<Value>& args) {
  if (Optionals::Handles(call.name)) return Optionals::Call(call, args);
  if (ListsLibrary::Handles(call.name, args)) return ListsLibrary::Call(call, args);
  if (ListsExtension::Handles(call.name)) return ListsExtension::Call(call, args);
  return StringsExtension::Call(call, args);
}

Value Functions::Size(const Node& call, const std::vector<Value>& args) {
  if (args.size() != 1) return NoOverload(call, args);
  const Value& v = args[0];
  if (auto* s = v.If<std::string>()) return Value(CodePoints(*s));
  if (auto* l = v.If<std::shared_ptr<const ValueList>>())
    return Value(static_cast<int64_t>((*l)->size()));
  if (auto* m = v.If<std::shared_ptr<const ValueMap>>())
    return Value(static_cast<int64_t>((*m)->size()));
  std::vector<Value> keys;
  if (!v.Is<DeviceRef>() && !Operators::Elements(v, keys).IsError())
    return Value(static_cast<int64_t>(keys.size()));
  return NoOverload(call, args);
}

Value Functions::String(const Node& call, const std::vector<Value>& args) {
  bool unary = call.function == Function::kLowerAscii || call.function == Function::kUpperAscii;
  bool global_matches = call.function == Function::kMatches && Shape(call, args, false, 2);
  if ((!Shape(call, args, true, unary ? 1 : 2) && !global_matches) || !args[0].Is<std::string>() ||
      (!unary && !args[1].Is<std::string>()))
    return NoOverload(call, args);
  const std::string& s = args[0].As<std::string>();
  if (unary) return Value(MapAscii(s, call.function == Function::kUpperAscii));
  const std::string& t = args[1].As<std::string>();
  switch (call.function) {
    case Function::kStartsWith:
      return Value(s.compare(0, t.size(), t) == 0 && s.size() >= t.size());
    case Function::kEndsWith:
      return Value(s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0);
    case Function::kContains:
      return Value(s.find(t) != std::string::npos);
    default:
      return Matches(call, s, t);
  }
}

Value Functions::Matches(const Node& call, const std::string& text, const std::string& pattern) {
  if (!call.regex_error.empty()) return Value::Error(call.regex_error);
  if (call.regex) return Value(call.regex->PartialMatch(text));
  auto regex = Regex::Compile(pattern);
  if (!regex.ok()) return Value::Error(regex.status().message());
  return Value((*regex)->PartialMatch(text));
}

Value Functions::Semver(const Node& call, const std::vector<Value>& args) {
  switch (call.function) {
    case Function::kQuantity:
    case Function::kIsQuantity:
    case Function::kSemver:
    case Function::kIsSemver:
      return ParseText(call, args);
    default:
      break;
  }
  const auto& v = args[0].As<dra::cel::Semver>();
  switch (call.function) {
    case Function::kMajor:
    case Function::kMinor:
    case Function::kPatch: {
      if (args.size() != 1) return NoOverload(call, args);
      uint64_t n = call.function == Function::kMajor   ? v.major()
                   : call.function == Function::kMinor ? v.minor()
                                                       : v.patch();
      if (n > static_cast<uint64_t>(INT64_MAX)) return Value::Error("int range error");
      return Value(static_cast<int64_t>(n));
    }
    case Function::kCompareTo:
    case Function::kIsGreaterThan:
    case Function::kIsLessThan:
      if (args.size() != 2 || !args[1].Is<dra::cel::Semver>()) return NoOverload(call, args);
      return CompareResult(call, v.Compare(args[1].As<dra::cel::Semver>()));
    default:
      return NoOverload(call, args);
  }
}

Value Functions::Quantity(const Node& call, const std::vector<Value>& args) {
  if (!call.has_target || args.empty() || !args[0].Is<kube::Quantity>())
    return NoOverload(call, args);
  const auto& q = args[0].As<kube::Quantity>();
  if (args.size() == 1) {
    switch (call.function) {
      case Function::kAsInteger: {
        auto i = q.AsInt64();
        return i ? Value(*i) : Value::Error("cannot convert value to integer: " + q.ToString());
      }
      case Function::kAsApproximateFloat:
        return Value(q.AsApproximateDouble());
      case Function::kIsInteger:
        return Value(q.AsInt64().has_value());
      case Function::kSign:
        return Value(static_cast<int64_t>(q.Sign()));
      default:
        return NoOverload(call, args);
    }
  }
  if (args.size() != 2) return NoOverload(call, args);
  const Value& other = args[1];
  switch (call.function) {
    case Function::kCompareTo:
    case Function::kIsGreaterThan:
    case Function::kIsLessThan:
      if (!other.Is<kube::Quantity>()) return NoOverload(call, args);
      return CompareResult(call, q.Compare(other.As<kube::Quantity>()));
    case Function::kQuantityAdd:
    case Function::kQuantitySub: {
      kube::Quantity rhs;
      if (auto* o = other.If<kube::Quantity>())
        rhs = *o;
      else if (auto* i = other.If<int64_t>())
        rhs = kube::Quantity::FromInt64(*i);
      else
        return NoOverload(call, args);
      auto r = call.function == Function::kQuantityAdd ? q.Add(rhs) : q.Sub(rhs);
      return r.ok() ? Value(*r) : Value::Error("quantity overflow");
    }
    default:
      return NoOverload(call, args);
  }
}

Value Functions::Convert(const Node& call, const std::vector<Value>& args) {
  if (!Shape(call, args, false, 1)) return NoOverload(call, args);
  const Value& v = args[0];
  Value result;
  switch (call.function) {
    case Function::kInt:
      result = ToInt(v);
      break;
    case Function::kUint:
      result = ToUint(v);
      break;
    case Function::kDouble:
      result = ToDouble(v);
      break;
    case Function::kBool:
      result = ToBool(v);
      break;
    case Function::kDyn:
      return v;
    case Function::kType:
      return Value(TypeValue{std::string(v.TypeName())});
    default:
      if (v.Is<std::string>() || v.Is<bool>() || v.Is<int64_t>() || v.Is<uint64_t>() ||
          v.Is<double>() || v.Is<kube::Quantity>() || v.Is<dra::cel::Semver>())
        result = Value(v.DebugString());
      break;
  }
  if (result.Is<NullValue>()) return NoOverload(call, args);
  return result;
}

}  // namespace dra::cel
