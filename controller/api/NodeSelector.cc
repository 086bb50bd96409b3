#include "controller/api/NodeSelector.h"

#include <algorithm>
#include <utility>

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {
namespace {

using Operator = kube::LabelSelector::Operator;
using Requirement = kube::LabelSelector::Requirement;

// One NodeSelectorRequirement as written.
struct RawRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
};

kube::Status Invalid(const std::string& path, const std::string& problem) {
  return kube::Status(kube::StatusCode::kParseError, path + ": " + problem);
}

bool IsNull(simdjson::dom::element e) { return e.is_null(); }

kube::Result<std::vector<std::string>> ReadValues(simdjson::dom::element values,
                                                  const std::string& path) {
  std::vector<std::string> out;
  if (IsNull(values)) return out;
  if (!kube::json::IsArray(values)) return Invalid(path, "must be an array of strings");
  kube::Status status;
  json::ForEachElement(values, [&](simdjson::dom::element value) {
    std::string_view text;
    if (!status.ok()) return;
    if (value.get(text) != simdjson::SUCCESS) {
      status = Invalid(path + "[" + std::to_string(out.size()) + "]", "must be a string");
      return;
    }
    out.emplace_back(text);
  });
  if (!status.ok()) return status;
  return out;
}

kube::Result<std::vector<RawRequirement>> ReadRequirements(simdjson::dom::element list,
                                                           const std::string& path) {
  std::vector<RawRequirement> out;
  if (IsNull(list)) return out;
  if (!kube::json::IsArray(list)) return Invalid(path, "must be an array");
  kube::Status status;
  json::ForEachElement(list, [&](simdjson::dom::element item) {
    if (!status.ok()) return;
    std::string item_path = path + "[" + std::to_string(out.size()) + "]";
    if (!kube::json::IsObject(item)) {
      status = Invalid(item_path, "must be an object");
      return;
    }
    RawRequirement raw{std::string(kube::json::StringOr(item, "key")),
                       std::string(kube::json::StringOr(item, "operator")),
                       {}};
    auto values = ReadValues(kube::json::Field(item, "values"), item_path + ".values");
    if (!values.ok()) {
      status = values.status();
      return;
    }
    raw.values = std::move(*values);
    out.push_back(std::move(raw));
  });
  if (!status.ok()) return status;
  return out;
}

std::optional<Operator> LabelOperator(std::string_view op) {
  if (op == "In") return Operator::kIn;
  if (op == "NotIn") return Operator::kNotIn;
  if (op == "Exists") return Operator::kExists;
  if (op == "DoesNotExist") return Operator::kDoesNotExist;
  if (op == "Gt") return Operator::kGreaterThan;
  if (op == "Lt") return Operator::kLessThan;
  return std::nullopt;
}

kube::Result<std::optional<kube::LabelSelector>> LabelsOf(std::vector<RawRequirement> raw,
                                                          const std::string& path) {
  if (raw.empty()) return std::optional<kube::LabelSelector>();
  std::vector<Requirement> requirements;
  for (size_t i = 0; i < raw.size(); ++i) {
    auto op = LabelOperator(raw[i].op);
    if (!op) {
      return Invalid(
          path + "[" + std::to_string(i) + "].operator",
          "unsupported value \"" + raw[i].op + "\" (In, NotIn, Exists, DoesNotExist, Gt or Lt)");
    }
    requirements.push_back(Requirement{std::move(raw[i].key), *op, std::move(raw[i].values)});
  }
  auto selector = kube::LabelSelector::FromRequirements(std::move(requirements));
  if (!selector.ok()) return selector.status().WithContext(path);
  return std::optional<kube::LabelSelector>(std::move(*selector));
}

using Fields = std::vector<NodeSelector::FieldRequirement>;

kube::Result<std::optional<Fields>> FieldsOf(std::vector<RawRequirement> raw,
                                             const std::string& path) {
  if (raw.empty()) return std::optional<Fields>();
  Fields fields;
  for (size_t i = 0; i < raw.size(); ++i) {
    std::string item_path = path + "[" + std::to_string(i) + "]";
    if (raw[i].op != "In" && raw[i].op != "NotIn") {
      return Invalid(item_path + ".operator",
                     "unsupported value \"" + raw[i].op + "\" (In or NotIn)");
    }
    if (raw[i].values.size() != 1) return Invalid(item_path + ".values", "must have one element");
    fields.push_back({std::move(raw[i].key), raw[i].op == "In", std::move(raw[i].values[0])});
  }
  return std::optional<Fields>(std::move(fields));
}

// nullopt for a term without requirements (it picks no node).
kube::Result<std::optional<NodeSelector::Term>> ReadTerm(simdjson::dom::element term,
                                                         const std::string& path) {
  if (!IsNull(term) && !kube::json::IsObject(term)) return Invalid(path, "must be an object");
  std::vector<RawRequirement> expressions, fields;
  KUBE_ASSIGN_OR_RETURN(expressions, ReadRequirements(kube::json::Field(term, "matchExpressions"),
                                                      path + ".matchExpressions"));
  KUBE_ASSIGN_OR_RETURN(
      fields, ReadRequirements(kube::json::Field(term, "matchFields"), path + ".matchFields"));
  if (expressions.empty() && fields.empty()) return std::optional<NodeSelector::Term>();
  NodeSelector::Term parsed;
  KUBE_ASSIGN_OR_RETURN(parsed.labels,
                        LabelsOf(std::move(expressions), path + ".matchExpressions"));
  KUBE_ASSIGN_OR_RETURN(parsed.fields, FieldsOf(std::move(fields), path + ".matchFields"));
  return std::optional<NodeSelector::Term>(std::move(parsed));
}

// Upstream's node fields: metadata.name only; other keys read as "".
bool FieldsMatch(const Fields& fields, std::string_view node_name) {
  return std::all_of(fields.begin(), fields.end(), [&](const NodeSelector::FieldRequirement& f) {
    std::string_view actual = f.key == "metadata.name" ? node_name : std::string_view();
    return (actual == f.value) == f.equals;
  });
}

}  // namespace

NodeSelector NodeSelector::FromJson(simdjson::dom::element selector) {
  NodeSelector out;
  simdjson::dom::element terms = kube::json::Field(selector, "nodeSelectorTerms");
  if (!IsNull(terms) && !kube::json::IsArray(terms)) {
    out.parse_error_ = "nodeSelectorTerms: must be an array";
    return out;
  }
  size_t index = 0;
  json::ForEachElement(terms, [&](simdjson::dom::element term) {
    std::string path = "nodeSelectorTerms[" + std::to_string(index++) + "]";
    if (!out.parse_error_.empty()) return;
    auto parsed = ReadTerm(term, path);
    if (!parsed.ok()) {
      out.parse_error_ = parsed.status().message();
    } else if (parsed->has_value()) {
      out.terms_.push_back(std::move(**parsed));
    }
  });
  if (!out.parse_error_.empty()) out.terms_.clear();
  return out;
}

bool NodeSelector::Matches(std::string_view node_name, const Labels& labels) const {
  return std::any_of(terms_.begin(), terms_.end(), [&](const Term& term) {
    if (term.labels && !term.labels->Matches(labels)) return false;
    // Upstream skips matchFields for a node without a name.
    return !term.fields || node_name.empty() || FieldsMatch(*term.fields, node_name);
  });
}

}  // namespace dra::api
