#pragma once

#include <simdjson.h>

#include <optional>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// resource.k8s.io/v1 DeviceClass: its CEL selectors and the extended resource
// name it serves (spec.config is for drivers and not kept).
struct DeviceClass {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;
  // The annotation a repair of the scheduler's mapping writes (seconds since
  // the epoch): touching the class makes kube-scheduler re-read it.
  static constexpr char kRefreshAnnotation[] = "dra-controller.dev/extended-resource-refresh";

  kube::ObjectMeta meta;
  int64_t creation_timestamp = 0;      // seconds since the epoch: the oldest class wins a name
  std::vector<std::string> selectors;  // CEL expressions, in order
  std::optional<std::string> extended_resource_name;
  // kRefreshAnnotation's time, when it holds an integer.
  std::optional<int64_t> refreshed_at;

  // "deviceclass.resource.kubernetes.io/<name>", the implicit extended resource name.
  std::string ImplicitExtendedResourceName() const {
    return "deviceclass.resource.kubernetes.io/" + meta.name;
  }

  static kube::Result<DeviceClass> FromJson(simdjson::dom::element object);
};

}  // namespace dra::api
