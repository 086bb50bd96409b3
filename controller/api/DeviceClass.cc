#include "controller/api/DeviceClass.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

kube::Result<DeviceClass> DeviceClass::FromJson(simdjson::dom::element object) {
  DeviceClass device_class;
  KUBE_ASSIGN_OR_RETURN(device_class.meta, kube::ObjectMeta::FromObject(object));
  simdjson::dom::element spec = kube::json::Field(object, "spec");
  simdjson::dom::element selectors = kube::json::Field(spec, "selectors");
  device_class.selectors.reserve(json::Size(selectors));
  json::ForEachElement(selectors, [&](simdjson::dom::element selector) {
    std::string_view expression =
        kube::json::StringOr(kube::json::Field(selector, "cel"), "expression");
    if (!expression.empty()) device_class.selectors.emplace_back(expression);
  });
  std::string_view name = kube::json::StringOr(spec, "extendedResourceName");
  if (!name.empty()) device_class.extended_resource_name = std::string(name);
  return device_class;
}

}  // namespace dra::api
