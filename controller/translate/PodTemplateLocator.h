#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::translate {

// A Pod spec inside a document, and the dotted path that leads to it.
struct PodSpecAt {
  YAML::Node spec;
  std::string path;  // "spec", "spec.template.spec", "template.spec", ...
};

// Finds the Pod spec of the workload kinds translate rewrites (core/apps/batch
// Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, ReplicationController,
// Job, CronJob, PodTemplate) and, for any other kind, the places that look
// like an embedded Pod spec (a map with a "containers" list).
class PodTemplateLocator {
 public:
  // The path to the Pod spec of a known workload kind, nullopt for other kinds.
  static std::optional<std::string_view> PathFor(std::string_view kind);
  // The Pod spec of a known workload kind when present in the document.
  static std::optional<PodSpecAt> Locate(const YAML::Node& object);
  // Every map below `object` that has a "containers" sequence (custom resources).
  static std::vector<PodSpecAt> FindEmbedded(const YAML::Node& object);

 private:
  static void Walk(const YAML::Node& node, const std::string& path, int depth,
                   std::vector<PodSpecAt>& found);
};

}  // namespace dra::translate
