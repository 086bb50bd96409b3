#include "controller/api/DeviceClass.h"

#include <charconv>

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::ResourceType DeviceClass::kResource{"resource.k8s.io", "v1", "deviceclasses", false,
                                                "DeviceClass"};

kube::Result<DeviceClass> DeviceClass::FromJson(simdjson::dom::element object) {
  DeviceClass device_class;
  KUBE_ASSIGN_OR_RETURN(device_class.meta, kube::ObjectMeta::FromObject(object));
  device_class.creation_timestamp = kube::json::ParseTimestamp(
      kube::json::StringOr(kube::json::Field(object, "metadata"), "creationTimestamp"));
  simdjson::dom::element annotations =
      kube::json::Field(kube::json::Field(object, "metadata"), "annotations");
  std::string_view refreshed = kube::json::StringOr(annotations, kRefreshAnnotation);
  int64_t seconds = 0;
  auto [end, error] =
      std::from_chars(refreshed.data(), refreshed.data() + refreshed.size(), seconds);
  if (!refreshed.empty() && error == std::errc() && end == refreshed.data() + refreshed.size()) {
    device_class.refreshed_at = seconds;
  }
  simdjson::dom::element spec = kube::json::Field(object, "spec");
  device_class.selectors = json::CelExpressions(kube::json::Field(spec, "selectors"));
  std::string_view name = kube::json::StringOr(spec, "extendedResourceName");
  if (!name.empty()) device_class.extended_resource_name = std::string(name);
  return device_class;
}

}  // namespace dra::api
