#include "controller/translate/YamlJson.h"

#include <charconv>
#include <cstdlib>

namespace dra::translate {

nlohmann::json YamlJson::PlainScalar(const std::string& text) {
  if (text == "null" || text == "~" || text.empty()) return nullptr;
  if (text == "true" || text == "True") return true;
  if (text == "false" || text == "False") return false;
  long long integer = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), integer);
  if (ec == std::errc() && end == text.data() + text.size()) return integer;
  char* stop = nullptr;
  double real = std::strtod(text.c_str(), &stop);
  bool numeric = text.find_first_of("0123456789") != std::string::npos;
  if (numeric && stop == text.c_str() + text.size()) return real;
  return text;
}

nlohmann::json YamlJson::ToJson(const YAML::Node& node) {
  if (!node || node.IsNull()) return nullptr;
  if (node.IsScalar()) {
    return node.Tag() == "?" ? PlainScalar(node.Scalar()) : nlohmann::json(node.Scalar());
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(ToJson(item));
    return out;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& entry : node) {
    if (entry.first.IsScalar()) out[entry.first.Scalar()] = ToJson(entry.second);
  }
  return out;
}

}  // namespace dra::translate
