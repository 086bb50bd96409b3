#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

namespace dra::translate {

// Converts a YAML node to JSON with the core schema's reading of plain
// scalars (integers, floats, true/false, null); quoted scalars stay strings.
class YamlJson {
 public:
  static nlohmann::json ToJson(const YAML::Node& node);

 private:
  static nlohmann::json PlainScalar(const std::string& text);
};

}  // namespace dra::translate
