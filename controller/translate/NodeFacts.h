#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace dra::translate {

// What migration-report needs of a Node: its labels (for nodeSelector and
// node affinity) and its allocatable extended resources (> 0 there: a device
// plugin serves the name on that node).
struct NodeFacts {
  std::string name;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> allocatable;

  static NodeFacts FromJson(const nlohmann::json& node);
  // True when a device plugin advertises `resource` here (allocatable > 0).
  bool DevicePluginServes(const std::string& resource) const;
  // Whether a Pod with this spec may land here by spec.nodeName,
  // spec.nodeSelector and required node affinity (labels and metadata.name).
  bool Admits(const nlohmann::json& pod_spec) const;

 private:
  bool MatchesTerm(const nlohmann::json& term) const;
  bool MatchesRequirement(const nlohmann::json& requirement, bool by_field) const;
};

}  // namespace dra::translate
