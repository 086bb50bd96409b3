#include "controller/docs/CrdReference.h"

#include <yaml-cpp/yaml.h>

#include <exception>
#include <set>
#include <vector>

#include "controller/docs/MarkdownTable.h"

namespace dra::docs {
namespace {

std::string Text(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : std::string();
}

std::string CodeList(const YAML::Node& list) {
  std::string out;
  if (!list || !list.IsSequence()) return out;
  for (const auto& item : list) out += (out.empty() ? "" : ", ") + MarkdownTable::Code(Text(item));
  return out;
}

std::string Type(const YAML::Node& schema) {
  std::string type = Text(schema["type"]);
  if (type == "array") type = "[]" + Type(schema["items"]);
  if (std::string format = Text(schema["format"]); !format.empty()) type += " (" + format + ")";
  return type;
}

// Allowed values and limits, in the words of the description column.
std::string Constraints(const YAML::Node& schema) {
  std::vector<std::string> parts;
  if (schema["enum"]) parts.push_back("One of " + CodeList(schema["enum"]) + ".");
  const bool nonempty = Text(schema["minLength"]) == "1";
  const std::pair<const char*, const char*> limits[] = {
      {"minLength", nonempty ? "not empty" : "at least %s characters"},
      {"maxLength", "at most %s characters"},
      {"minimum", "at least %s"},
      {"maximum", "at most %s"},
      {"maxItems", "at most %s items"}};
  std::string said;
  for (const auto& [key, words] : limits) {
    if (!schema[key]) continue;
    std::string phrase = words;
    if (auto at = phrase.find("%s"); at != std::string::npos) {
      phrase.replace(at, 2, Text(schema[key]));
    }
    said += (said.empty() ? "" : ", ") + phrase;
  }
  if (!said.empty()) {
    said[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(said[0])));
    parts.push_back(said + ".");
  }
  if (schema["pattern"])
    parts.push_back("Matches " + MarkdownTable::Code(Text(schema["pattern"])) + ".");
  if (Text(schema["x-kubernetes-list-type"]) == "map") {
    parts.push_back("A list keyed by " + CodeList(schema["x-kubernetes-list-map-keys"]) + ".");
  }
  std::string out;
  for (const auto& part : parts) out += " " + part;
  return out;
}

class SchemaWalk {
 public:
  MarkdownTable fields{{"Field", "Type", "Required", "Description"}};
  MarkdownTable rules{{"On", "Message"}};

  void Object(const YAML::Node& schema, const std::string& path) {
    AddRules(schema, path);
    const YAML::Node& properties = schema["properties"];
    if (!properties || !properties.IsMap()) return;
    std::set<std::string> required;
    if (schema["required"] && schema["required"].IsSequence()) {
      for (const auto& name : schema["required"]) required.insert(Text(name));
    }
    for (const auto& property : properties) {
      std::string name = Text(property.first);
      std::string child = path.empty() ? name : path + "." + name;
      Field(property.second, child, required.count(name) > 0);
    }
  }

 private:
  void Field(const YAML::Node& schema, const std::string& path, bool required) {
    fields.AddRow({MarkdownTable::Code(path), Type(schema), required ? "yes" : "",
                   Text(schema["description"]) + Constraints(schema)});
    if (Text(schema["type"]) == "object") Object(schema, path);
    if (Text(schema["type"]) == "array" && schema["items"]) {
      Object(schema["items"], path + "[]");
    }
  }

  void AddRules(const YAML::Node& schema, const std::string& path) {
    const YAML::Node& validations = schema["x-kubernetes-validations"];
    if (!validations || !validations.IsSequence()) return;
    for (const auto& rule : validations) {
      rules.AddRow(
          {path.empty() ? "the object" : MarkdownTable::Code(path), Text(rule["message"])});
    }
  }
};

kube::Status Invalid(const std::string& message) {
  return kube::Status(kube::StatusCode::kInvalid, message);
}

kube::Result<std::string> Render(const YAML::Node& crd, const std::string& source) {
  const YAML::Node& spec = crd["spec"];
  std::string kind = Text(spec["names"]["kind"]);
  if (Text(crd["kind"]) != "CustomResourceDefinition" || kind.empty()) {
    return Invalid(source + ": not a CustomResourceDefinition with spec.names.kind");
  }
  std::string out = "# " + kind + " reference\n\nGenerated from `" + source +
                    "` by `dra-controller docs crd`; after changing the CRD, run `make docs`.\n\n";
  out += "Group " + MarkdownTable::Code(Text(spec["group"])) + ", scope " + Text(spec["scope"]) +
         ", resource " + MarkdownTable::Code(Text(spec["names"]["plural"])) + ", short names " +
         CodeList(spec["names"]["shortNames"]) + ".\n";
  bool any = false;
  const YAML::Node versions = spec["versions"];
  for (const auto& version : versions) {
    const YAML::Node& schema = version["schema"]["openAPIV3Schema"];
    if (!schema) continue;
    any = true;
    std::string api = Text(spec["group"]) + "/" + Text(version["name"]);
    out += "\n## " + api + "\n\n" + MarkdownTable::Inline(Text(schema["description"])) +
           "\n\n### Fields\n\n";
    SchemaWalk walk;
    walk.Object(schema, "");
    out += walk.fields.Render() + "\n### Validation rules\n\nThe API server refuses an object " +
           "that breaks one of these CEL rules with the message shown.\n\n" + walk.rules.Render();
  }
  if (!any) return Invalid(source + ": no version has an openAPIV3Schema");
  return out;
}

}  // namespace

kube::Result<std::string> CrdReference::Markdown(const std::string& crd_yaml,
                                                 const std::string& source) {
  try {
    return Render(YAML::Load(crd_yaml), source);
  } catch (const std::exception& e) {  // yaml-cpp reports bad YAML by throwing
    return Invalid(source + ": " + e.what());
  }
}

}  // namespace dra::docs
