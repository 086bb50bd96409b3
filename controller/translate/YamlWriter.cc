#include "controller/translate/YamlWriter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace dra::translate {
namespace {

constexpr std::string_view kPlainTag = "?";
constexpr std::string_view kIntegerTag = "tag:yaml.org,2002:int";

bool IsCollection(const YAML::Node& node) { return node.IsMap() || node.IsSequence(); }
bool IsEmptyCollection(const YAML::Node& node) { return IsCollection(node) && node.size() == 0; }

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Words YAML 1.1 (which kubectl's parser follows) or 1.2 read as bool or null.
bool IsReservedWord(std::string_view value) {
  static constexpr std::array<std::string_view, 11> kWords = {
      "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ""};
  std::string lower = Lower(value);
  return std::find(kWords.begin(), kWords.end(), lower) != kWords.end();
}

}  // namespace

YAML::Node YamlWriter::String(std::string_view value) {
  YAML::Node node{std::string(value)};
  node.SetTag("!");
  return node;
}

YAML::Node YamlWriter::Integer(long long value) {
  YAML::Node node{std::to_string(value)};
  node.SetTag(std::string(kIntegerTag));
  return node;
}

bool YamlWriter::IsPlainSafeString(std::string_view value) {
  if (value.empty() || IsReservedWord(value)) return false;
  unsigned char first = static_cast<unsigned char>(value.front());
  if (!std::isalpha(first) && first != '/' && first != '_') return false;
  for (unsigned char c : value) {
    if (!std::isalnum(c) && c != '.' && c != '-' && c != '_' && c != '/') return false;
  }
  // "e1"-like strings are fine; numbers never start with a letter except .inf/.nan.
  return true;
}

std::string YamlWriter::Quote(std::string_view value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string YamlWriter::Scalar(const YAML::Node& node) {
  if (node.IsNull()) return "null";
  const std::string& value = node.Scalar();
  const std::string& tag = node.Tag();
  bool multiline = value.find('\n') != std::string::npos;
  if (tag == kIntegerTag) return value;
  // A plain scalar of the input: its text is valid plain YAML with the meaning it had.
  if (tag == kPlainTag && !multiline && !value.empty()) return value;
  if (tag == kPlainTag && value.empty()) return "\"\"";
  return IsPlainSafeString(value) ? value : Quote(value);
}

void YamlWriter::WriteMap(const YAML::Node& node, int indent, bool inline_first, std::string& out) {
  bool first = true;
  for (const auto& entry : node) {
    if (!(first && inline_first)) out.append(static_cast<size_t>(indent), ' ');
    first = false;
    out += Scalar(entry.first) + ":";
    const YAML::Node& value = entry.second;
    if (IsEmptyCollection(value)) {
      out += value.IsMap() ? " {}\n" : " []\n";
    } else if (value.IsMap()) {
      out += "\n";
      WriteMap(value, indent + 2, false, out);
    } else if (value.IsSequence()) {
      out += "\n";
      WriteSequence(value, indent, out);
    } else {
      out += " " + Scalar(value) + "\n";
    }
  }
}

void YamlWriter::WriteSequence(const YAML::Node& node, int indent, std::string& out) {
  for (const auto& item : node) {
    out.append(static_cast<size_t>(indent), ' ');
    out += "-";
    if (IsEmptyCollection(item)) {
      out += item.IsMap() ? " {}\n" : " []\n";
    } else if (item.IsMap()) {
      out += " ";
      WriteMap(item, indent + 2, true, out);
    } else if (item.IsSequence()) {
      out += "\n";
      WriteSequence(item, indent + 2, out);
    } else {
      out += " " + Scalar(item) + "\n";
    }
  }
}

void YamlWriter::WriteNode(const YAML::Node& node, int indent, std::string& out) {
  if (IsEmptyCollection(node)) {
    out += node.IsMap() ? "{}\n" : "[]\n";
  } else if (node.IsMap()) {
    WriteMap(node, indent, false, out);
  } else if (node.IsSequence()) {
    WriteSequence(node, indent, out);
  } else {
    out += Scalar(node) + "\n";
  }
}

std::string YamlWriter::Write(const YAML::Node& node) {
  std::string out;
  WriteNode(node, 0, out);
  return out;
}

}  // namespace dra::translate
