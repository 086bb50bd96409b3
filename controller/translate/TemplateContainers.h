#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "controller/api/PodView.h"

namespace dra::translate {

// One extended-resource entry of a container as written in the manifest.
struct WrittenResource {
  std::string name;
  std::string request_text;  // requests[name] as written, "" when absent
  std::string limit_text;    // limits[name] as written, "" when absent
  std::string path;          // the field the effective quantity comes from
  bool parsed = true;        // false: the effective quantity is not a quantity
};

// A container of a Pod spec: the projection ImplicitClaimTranslator takes,
// plus what the manifest says and where.
struct TemplateContainer {
  YAML::Node node;
  std::string path;  // e.g. spec.template.spec.initContainers[0]
  api::PodView::Container view;
  std::vector<WrittenResource> written;  // same order as view.resources
};

// Builds the containers of a Pod spec (initContainers, then containers, as
// the scheduler indexes them) from YAML: name, init/sidecar, and each
// extended resource (requests, else limits) with request_index = position of
// its name among the sorted union of the container's requests and limits keys.
class TemplateContainers {
 public:
  static std::vector<TemplateContainer> From(const YAML::Node& pod_spec,
                                             const std::string& spec_path);

 private:
  static TemplateContainer One(const YAML::Node& node, const std::string& path, bool is_init);
  static void AddResource(const YAML::Node& resources, const std::vector<std::string>& keys,
                          const std::string& name, const std::string& path,
                          TemplateContainer& container);
};

}  // namespace dra::translate
