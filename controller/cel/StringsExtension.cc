#include "controller/cel/StringsExtension.h"

#include "controller/cel/Operators.h"
#include "controller/cel/Regex.h"
#include "controller/cel/StringFormat.h"

namespace dra::cel {
namespace {

using ListPtr = std::shared_ptr<const ValueList>;

Value NoOverload(const Node& call, const std::vector<Value>& args) {
  std::vector<const Value*> pointers;
  for (const Value& arg : args) pointers.push_back(&arg);
  return Operators::NoOverload(call.name, pointers);
}

// Byte offsets of each code point, then the string's size.
std::vector<size_t> CodePoints(const std::string& s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
  return out;
}

Value OutOfRange(int64_t index) {
  return Value::Error("index out of range: " + std::to_string(index));
}

Value TooLarge() {
  return Value::Error("replace() result exceeds " +
                      std::to_string(StringsExtension::kMaxResultBytes) + " bytes");
}

bool IsString(const Value& v) { return v.Is<std::string>(); }
bool IsInt(const Value& v) { return v.Is<int64_t>(); }

ListPtr Strings(std::vector<std::string> parts) {
  auto list = std::make_shared<ValueList>();
  for (auto& part : parts) list->push_back(Value(std::move(part)));
  return list;
}

}  // namespace

Value StringsExtension::Call(const Node& call, const std::vector<Value>& args) {
  const std::string& name = call.name;
  size_t n = args.size();
  if (name == "strings.quote" && !call.has_target && n == 1 && IsString(args[0]))
    return Quote(args[0].As<std::string>());
  if (name == "join" && call.has_target && (n == 1 || (n == 2 && IsString(args[1]))))
    return Join(args[0], n == 2 ? args[1].As<std::string>() : "");
  if (!call.has_target || n == 0 || !IsString(args[0])) return NoOverload(call, args);
  const std::string& s = args[0].As<std::string>();
  if (name == "find" || name == "findAll") return Find(call, args);
  if (name == "trim" && n == 1) return Trim(s);
  if (name == "charAt" && n == 2 && IsInt(args[1])) return CharAt(s, args[1].As<int64_t>());
  if (name == "format" && n == 2 && args[1].Is<ListPtr>())
    return StringFormat::Format(s, *args[1].As<ListPtr>());
  if (name == "substring" && (n == 2 || n == 3) && IsInt(args[1]) && (n == 2 || IsInt(args[2])))
    return Substring(s, args[1].As<int64_t>(),
                     n == 3 ? std::optional<int64_t>(args[2].As<int64_t>()) : std::nullopt);
  bool with_int = n == 3 && IsInt(args[2]);
  if ((name == "indexOf" || name == "lastIndexOf") && (n == 2 || with_int) && IsString(args[1])) {
    bool last = name == "lastIndexOf";
    int64_t offset = with_int ? args[2].As<int64_t>() : (last ? -2 : 0);
    return IndexOf(s, args[1].As<std::string>(), offset, last);
  }
  if (name == "split" && (n == 2 || with_int) && IsString(args[1]))
    return Split(s, args[1].As<std::string>(), with_int ? args[2].As<int64_t>() : -1);
  if (name == "replace" && (n == 3 || (n == 4 && IsInt(args[3]))) && IsString(args[1]) &&
      IsString(args[2]))
    return Replace(s, args[1].As<std::string>(), args[2].As<std::string>(),
                   n == 4 ? args[3].As<int64_t>() : -1);
  return NoOverload(call, args);
}

Value StringsExtension::CharAt(const std::string& s, int64_t index) {
  auto points = CodePoints(s);
  int64_t length = static_cast<int64_t>(points.size()) - 1;
  if (index < 0 || index > length) return OutOfRange(index);
  if (index == length) return Value(std::string());
  return Value(s.substr(points[index], points[index + 1] - points[index]));
}

// offset -2 means lastIndexOf without an offset (search from the end).
Value StringsExtension::IndexOf(const std::string& s, const std::string& sub, int64_t offset,
                                bool last) {
  auto points = CodePoints(s);
  auto sub_points = CodePoints(sub);
  int64_t length = static_cast<int64_t>(points.size()) - 1;
  int64_t sub_length = static_cast<int64_t>(sub_points.size()) - 1;
  if (offset == -2) {
    if (sub.empty()) return Value(length);
    if (s.size() < sub.size()) return Value(int64_t{-1});
    offset = length - 1;
  }
  if (offset < 0) return OutOfRange(offset);
  if (sub.empty()) return Value(std::min(offset, length));
  if (offset >= length) return Value(int64_t{-1});
  auto at = [&](int64_t i) {
    return i + sub_length <= length &&
           s.compare(points[i], points[i + sub_length] - points[i], sub) == 0;
  };
  if (!last) {
    for (int64_t i = offset; i + sub_length <= length; ++i)
      if (at(i)) return Value(i);
    return Value(int64_t{-1});
  }
  for (int64_t i = std::min(offset, length - sub_length); i >= 0; --i)
    if (at(i)) return Value(i);
  return Value(int64_t{-1});
}

Value StringsExtension::Substring(const std::string& s, int64_t start, std::optional<int64_t> end) {
  auto points = CodePoints(s);
  int64_t length = static_cast<int64_t>(points.size()) - 1;
  if (!end) {
    if (start < 0 || start > length) return OutOfRange(start);
    return Value(s.substr(points[start]));
  }
  int64_t stop = *end;
  if (start > stop)
    return Value::Error("invalid substring range. start: " + std::to_string(start) +
                        ", end: " + std::to_string(stop));
  if (start < 0 || start > length) return OutOfRange(start);
  if (stop < 0 || stop > length) return OutOfRange(stop);
  return Value(s.substr(points[start], points[stop] - points[start]));
}

// Go's strings.Replace: n < 0 replaces all; an empty `from` matches before
// every code point and at the end.
Value StringsExtension::Replace(const std::string& s, const std::string& from,
                                const std::string& to, int64_t n) {
  std::string out;
  size_t pos = 0;
  int64_t done = 0;
  if (from.empty()) {
    auto points = CodePoints(s);
    for (size_t i = 0; i < points.size(); ++i) {
      if (n < 0 || done < n) {
        if (out.size() + to.size() > kMaxResultBytes) return TooLarge();
        out += to;
        ++done;
      }
      if (i + 1 < points.size()) out += s.substr(points[i], points[i + 1] - points[i]);
    }
    return Value(std::move(out));
  }
  for (size_t hit; (n < 0 || done < n) && (hit = s.find(from, pos)) != std::string::npos; ++done) {
    out.append(s, pos, hit - pos);
    if (out.size() + to.size() > kMaxResultBytes) return TooLarge();
    out += to;
    pos = hit + from.size();
  }
  out.append(s, pos, std::string::npos);
  return Value(std::move(out));
}

// Go's strings.SplitN: n == 0 gives [], n < 0 no limit; an empty separator
// splits into code points.
Value StringsExtension::Split(const std::string& s, const std::string& sep, int64_t n) {
  std::vector<std::string> parts;
  if (n == 0) return Value(Strings(std::move(parts)));
  if (sep.empty()) {
    auto points = CodePoints(s);
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      if (n > 0 && static_cast<int64_t>(parts.size()) == n - 1) {
        parts.push_back(s.substr(points[i]));
        break;
      }
      parts.push_back(s.substr(points[i], points[i + 1] - points[i]));
    }
    return Value(Strings(std::move(parts)));
  }
  size_t pos = 0;
  for (size_t hit; (n < 0 || static_cast<int64_t>(parts.size()) < n - 1) &&
                   (hit = s.find(sep, pos)) != std::string::npos;) {
    parts.push_back(s.substr(pos, hit - pos));
    pos = hit + sep.size();
  }
  parts.push_back(s.substr(pos));
  return Value(Strings(std::move(parts)));
}

Value StringsExtension::Join(const Value& list, const std::string& separator) {
  auto* items = list.If<ListPtr>();
  if (!items) return Operators::NoOverload("join", {&list});
  std::string out;
  for (size_t i = 0; i < (*items)->size(); ++i) {
    const Value& item = (**items)[i];
    if (!item.Is<std::string>()) return Value::Error("join: invalid input: " + item.DebugString());
    if (i > 0) out += separator;
    out += item.As<std::string>();
  }
  return Value(std::move(out));
}

// Go's strings.TrimSpace: ASCII white space and the Unicode White_Space
// code points (U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000).
Value StringsExtension::Trim(const std::string& s) {
  static constexpr std::string_view kSpaces[] = {
      " ",      "\t",     "\n",     "\v",     "\f",     "\r",     "\u0085", "\u00a0", "\u1680",
      "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008",
      "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"};
  std::string_view v = s;
  for (bool trimmed = true; trimmed && !v.empty();) {
    trimmed = false;
    for (auto space : kSpaces) {
      if (v.starts_with(space)) v.remove_prefix(space.size()), trimmed = true;
      if (v.ends_with(space)) v.remove_suffix(space.size()), trimmed = true;
    }
  }
  return Value(std::string(v));
}

Value StringsExtension::Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        out += c;
    }
  }
  return Value(out + "\"");
}

// s.find(re) / s.findAll(re[, n]) (Kubernetes' regex library).
Value StringsExtension::Find(const Node& call, const std::vector<Value>& args) {
  bool all = call.name == "findAll";
  size_t n = args.size();
  if (!(n == 2 || (all && n == 3 && IsInt(args[2]))) || !IsString(args[1]))
    return NoOverload(call, args);
  std::shared_ptr<const Regex> regex = call.regex;
  if (!call.regex_error.empty()) return Value::Error(call.regex_error);
  if (!regex) {
    auto compiled = Regex::Compile(args[1].As<std::string>());
    if (!compiled.ok()) return Value::Error(compiled.status().message());
    regex = std::move(compiled).value();
  }
  const std::string& s = args[0].As<std::string>();
  if (!all) return Value(regex->Find(s));
  return Value(Strings(regex->FindAll(s, n == 3 ? args[2].As<int64_t>() : -1)));
}

}  // namespace dra::cel
