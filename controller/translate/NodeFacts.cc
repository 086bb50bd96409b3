#include "controller/translate/NodeFacts.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "src/api/Quantity.h"
#include "src/base/NlohmannFields.h"

namespace dra::translate {
namespace {

using nlohmann::json;

constexpr auto* At = &kube::NlohmannFields::At;
constexpr auto* Text = &kube::NlohmannFields::Text;

std::map<std::string, std::string> StringMap(const json& object) {
  std::map<std::string, std::string> out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) out[key] = Text(value);
  return out;
}

bool ParseInt(const std::string& text, long long& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

NodeFacts NodeFacts::FromJson(const json& node) {
  NodeFacts facts;
  facts.name = Text(At(At(node, "metadata"), "name"));
  facts.labels = StringMap(At(At(node, "metadata"), "labels"));
  facts.allocatable = StringMap(At(At(node, "status"), "allocatable"));
  return facts;
}

bool NodeFacts::DevicePluginServes(const std::string& resource) const {
  auto it = allocatable.find(resource);
  if (it == allocatable.end()) return false;
  auto quantity = kube::Quantity::Parse(it->second);
  return quantity.ok() && quantity->Sign() > 0;
}

bool NodeFacts::MatchesRequirement(const json& requirement, bool by_field) const {
  std::string key = Text(At(requirement, "key"));
  std::string op = Text(At(requirement, "operator"));
  std::vector<std::string> values;
  if (At(requirement, "values").is_array()) {
    for (const auto& v : At(requirement, "values")) values.push_back(Text(v));
  }
  std::optional<std::string> actual;
  if (by_field) {
    if (key == "metadata.name") actual = name;
  } else if (auto it = labels.find(key); it != labels.end()) {
    actual = it->second;
  }
  bool listed = actual && std::find(values.begin(), values.end(), *actual) != values.end();
  if (op == "In") return listed;
  if (op == "NotIn") return !listed;
  if (op == "Exists") return actual.has_value();
  if (op == "DoesNotExist") return !actual.has_value();
  long long have = 0, want = 0;
  if ((op == "Gt" || op == "Lt") && actual && values.size() == 1 && ParseInt(*actual, have) &&
      ParseInt(values[0], want)) {
    return op == "Gt" ? have > want : have < want;
  }
  return false;
}

bool NodeFacts::MatchesTerm(const json& term) const {
  const json& expressions = At(term, "matchExpressions");
  const json& fields = At(term, "matchFields");
  if (!expressions.is_array() && !fields.is_array()) return false;  // an empty term matches nothing
  for (const auto& r : expressions.is_array() ? expressions : json::array()) {
    if (!MatchesRequirement(r, false)) return false;
  }
  for (const auto& r : fields.is_array() ? fields : json::array()) {
    if (!MatchesRequirement(r, true)) return false;
  }
  return true;
}

bool NodeFacts::Admits(const json& pod_spec) const {
  std::string node_name = Text(At(pod_spec, "nodeName"));
  if (!node_name.empty() && node_name != name) return false;
  for (const auto& [key, value] : StringMap(At(pod_spec, "nodeSelector"))) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  const json& terms = At(At(At(At(pod_spec, "affinity"), "nodeAffinity"),
                            "requiredDuringSchedulingIgnoredDuringExecution"),
                         "nodeSelectorTerms");
  if (!terms.is_array()) return true;
  return std::any_of(terms.begin(), terms.end(), [&](const json& t) { return MatchesTerm(t); });
}

}  // namespace dra::translate
