#include "controller/translate/PodTemplateLocator.h"

#include <array>
#include <utility>

namespace dra::translate {
namespace {

constexpr int kMaxDepth = 64;

constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kPaths = {{
    {"Pod", "spec"},
    {"Deployment", "spec.template.spec"},
    {"StatefulSet", "spec.template.spec"},
    {"DaemonSet", "spec.template.spec"},
    {"ReplicaSet", "spec.template.spec"},
    {"ReplicationController", "spec.template.spec"},
    {"Job", "spec.template.spec"},
    {"CronJob", "spec.jobTemplate.spec.template.spec"},
    {"PodTemplate", "template.spec"},
}};

}  // namespace

std::optional<std::string_view> PodTemplateLocator::PathFor(std::string_view kind) {
  for (const auto& [k, path] : kPaths) {
    if (k == kind) return path;
  }
  return std::nullopt;
}

std::optional<PodSpecAt> PodTemplateLocator::Locate(const YAML::Node& object) {
  if (!object.IsMap() || !object["kind"] || !object["kind"].IsScalar()) return std::nullopt;
  auto path = PathFor(object["kind"].Scalar());
  if (!path) return std::nullopt;
  YAML::Node node = object;
  std::string_view rest = *path;
  while (!rest.empty()) {
    size_t dot = rest.find('.');
    std::string key(rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    const YAML::Node& current = node;
    if (!current.IsMap() || !current[key]) return std::nullopt;
    node.reset(current[key]);  // rebinds; operator= would overwrite the tree
  }
  if (!node.IsMap()) return std::nullopt;
  return PodSpecAt{node, std::string(*path)};
}

void PodTemplateLocator::Walk(const YAML::Node& node, const std::string& path, int depth,
                              std::vector<PodSpecAt>& found) {
  if (depth > kMaxDepth) return;
  if (node.IsMap()) {
    if (node["containers"] && node["containers"].IsSequence()) {
      found.push_back({node, path});
      return;
    }
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) continue;
      std::string child = path.empty() ? entry.first.Scalar() : path + "." + entry.first.Scalar();
      Walk(entry.second, child, depth + 1, found);
    }
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) {
      Walk(node[i], path + "[" + std::to_string(i) + "]", depth + 1, found);
    }
  }
}

std::vector<PodSpecAt> PodTemplateLocator::FindEmbedded(const YAML::Node& object) {
  std::vector<PodSpecAt> found;
  Walk(object, "", 0, found);
  return found;
}

}  // namespace dra::translate
