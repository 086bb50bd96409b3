#include "controller/api/DeviceTaintRule.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::ResourceType DeviceTaintRule::kResource{"resource.k8s.io", "v1", "devicetaintrules",
                                                    false, "DeviceTaintRule"};

bool DeviceTaintRule::Matches(std::string_view driver, std::string_view pool,
                              std::string_view device) const {
  if (!selector.has_value()) return false;
  return (selector->driver.empty() || selector->driver == driver) &&
         (selector->pool.empty() || selector->pool == pool) &&
         (selector->device.empty() || selector->device == device);
}

kube::Result<DeviceTaintRule> DeviceTaintRule::FromJson(simdjson::dom::element object) {
  using kube::json::Field;
  using kube::json::StringOr;
  DeviceTaintRule rule;
  KUBE_ASSIGN_OR_RETURN(rule.meta, kube::ObjectMeta::FromObject(object));
  json::ForEachElement(Field(Field(object, "metadata"), "ownerReferences"),
                       [&](simdjson::dom::element owner) {
                         if (kube::json::BoolOr(owner, "controller")) {
                           rule.controller_uid = std::string(StringOr(owner, "uid"));
                         }
                       });
  simdjson::dom::element spec = Field(object, "spec");
  simdjson::dom::element selector = Field(spec, "deviceSelector");
  if (kube::json::IsObject(selector)) {
    rule.selector =
        Selector{std::string(StringOr(selector, "driver")), std::string(StringOr(selector, "pool")),
                 std::string(StringOr(selector, "device"))};
  }
  KUBE_ASSIGN_OR_RETURN(rule.taint, DeviceTaint::FromJson(Field(spec, "taint")));
  simdjson::dom::element conditions = Field(Field(object, "status"), "conditions");
  rule.conditions.reserve(json::Size(conditions));
  json::ForEachElement(conditions, [&](simdjson::dom::element c) {
    rule.conditions.push_back({std::string(StringOr(c, "type")), std::string(StringOr(c, "status")),
                               std::string(StringOr(c, "reason")),
                               std::string(StringOr(c, "message")),
                               kube::json::IntOr(c, "observedGeneration")});
  });
  return rule;
}

}  // namespace dra::api
