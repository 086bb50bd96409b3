#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace dra::translate {

// Where translate and migration-report get DeviceClasses from: a manifest
// file (DeviceClass documents, or a List of them, YAML or JSON) or the live
// cluster. Either way the mapping is built by ExtendedResourceMapping, the
// code the controller uses.
class ClassSource {
 public:
  using Classes = std::vector<std::shared_ptr<const api::DeviceClass>>;

  static kube::Result<Classes> FromText(std::string_view text);
  static kube::Result<Classes> FromCluster(kube::RestClient& client);
  // Parses one DeviceClass object given as JSON text.
  static kube::Result<api::DeviceClass> Parse(const std::string& json_text);
};

}  // namespace dra::translate
