#include "controller/translate/TemplateContainers.h"

#include <algorithm>
#include <set>

#include "controller/extended/ExtendedResourceMapping.h"

namespace dra::translate {
namespace {

std::string ScalarAt(const YAML::Node& map, const std::string& key) {
  if (!map || !map.IsMap()) return "";
  const YAML::Node value = map[key];
  return value && value.IsScalar() ? value.Scalar() : "";
}

void CollectKeys(const YAML::Node& map, std::set<std::string>& keys) {
  if (!map || !map.IsMap()) return;
  for (const auto& entry : map) {
    if (entry.first.IsScalar()) keys.insert(entry.first.Scalar());
  }
}

}  // namespace

void TemplateContainers::AddResource(const YAML::Node& resources,
                                     const std::vector<std::string>& keys, const std::string& name,
                                     const std::string& path, TemplateContainer& container) {
  WrittenResource written;
  written.name = name;
  written.request_text = ScalarAt(resources["requests"], name);
  written.limit_text = ScalarAt(resources["limits"], name);
  bool from_request = !written.request_text.empty();
  written.path = path + ".resources." + (from_request ? "requests" : "limits") + "[" + name + "]";
  api::PodView::ExtendedResource r;
  r.name = name;
  r.has_request = from_request;
  r.has_limit = !written.limit_text.empty();
  auto quantity = kube::Quantity::Parse(from_request ? written.request_text : written.limit_text);
  written.parsed = quantity.ok();
  if (quantity.ok()) r.request = *quantity;
  if (r.has_limit) {
    auto limit = kube::Quantity::Parse(written.limit_text);
    if (limit.ok()) r.limit = *limit;
  }
  auto index = std::lower_bound(keys.begin(), keys.end(), name) - keys.begin();
  r.request_index = static_cast<uint16_t>(index);
  container.view.resources.push_back(std::move(r));
  container.written.push_back(std::move(written));
}

TemplateContainer TemplateContainers::One(const YAML::Node& node, const std::string& path,
                                          bool is_init) {
  TemplateContainer container;
  container.node = node;
  container.path = path;
  container.view.name = ScalarAt(node, "name");
  container.view.is_init = is_init;
  container.view.is_sidecar = is_init && ScalarAt(node, "restartPolicy") == "Always";
  if (!node.IsMap()) return container;
  const YAML::Node resources = node["resources"];
  if (!resources || !resources.IsMap()) return container;
  std::set<std::string> key_set;
  CollectKeys(resources["requests"], key_set);
  CollectKeys(resources["limits"], key_set);
  std::vector<std::string> keys(key_set.begin(), key_set.end());
  for (const std::string& name : keys) {
    if (extended::ExtendedResourceMapping::IsDraExtendedResourceName(name)) {
      AddResource(resources, keys, name, path, container);
    }
  }
  return container;
}

std::vector<TemplateContainer> TemplateContainers::From(const YAML::Node& pod_spec,
                                                        const std::string& spec_path) {
  std::vector<TemplateContainer> out;
  for (const char* field : {"initContainers", "containers"}) {
    const YAML::Node list = pod_spec[field];
    if (!list || !list.IsSequence()) continue;
    bool is_init = std::string_view(field) == "initContainers";
    for (size_t i = 0; i < list.size(); ++i) {
      std::string path = spec_path + "." + field + "[" + std::to_string(i) + "]";
      out.push_back(One(list[i], path, is_init));
    }
  }
  return out;
}

}  // namespace dra::translate
