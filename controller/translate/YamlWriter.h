#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace dra::translate {

// Writes a YAML node in block style, two-space indentation, sequences at
// their key's indentation (as kubectl prints them), map keys in their
// original order. Scalars keep their meaning: a plain scalar from the input
// is written as it was read, a string is quoted whenever it could read as
// anything but that string.
class YamlWriter {
 public:
  static std::string Write(const YAML::Node& node);

  // A string scalar for new content (written plain when safe, else quoted).
  static YAML::Node String(std::string_view value);
  // An integer scalar for new content.
  static YAML::Node Integer(long long value);

 private:
  static void WriteNode(const YAML::Node& node, int indent, std::string& out);
  static void WriteMap(const YAML::Node& node, int indent, bool inline_first, std::string& out);
  static void WriteSequence(const YAML::Node& node, int indent, std::string& out);
  static std::string Scalar(const YAML::Node& node);
  static bool IsPlainSafeString(std::string_view value);
  static std::string Quote(std::string_view value);
};

}  // namespace dra::translate
