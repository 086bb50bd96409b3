#include "controller/api/NodeView.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

kube::Quantity NodeView::Allocatable(std::string_view name) const {
  for (const auto& [n, q] : allocatable_extended)
    if (n == name) return q;
  return kube::Quantity();
}

bool NodeView::IsExtendedResourceName(std::string_view name) {
  return json::ContainsSlash(name) && name.find("kubernetes.io/") == std::string_view::npos;
}

kube::Result<NodeView> NodeView::FromJson(simdjson::dom::element object) {
  using kube::json::Field;
  NodeView node;
  KUBE_ASSIGN_OR_RETURN(node.meta, kube::ObjectMeta::FromObject(object));
  node.unschedulable = kube::json::BoolOr(Field(object, "spec"), "unschedulable");
  simdjson::dom::element status = Field(object, "status");
  json::ForEachMember(Field(status, "allocatable"),
                      [&](std::string_view name, simdjson::dom::element value) {
                        if (!IsExtendedResourceName(name)) return;
                        auto quantity = json::QuantityValue(value);
                        if (quantity.has_value()) {
                          node.allocatable_extended.emplace_back(std::string(name), *quantity);
                        }
                      });
  node.allocatable_extended.shrink_to_fit();
  json::ForEachElement(Field(status, "conditions"), [&](simdjson::dom::element c) {
    if (kube::json::StringOr(c, "type") != "Ready") return;
    std::string_view s = kube::json::StringOr(c, "status");
    node.ready = s == "True"    ? Readiness::kReady
                 : s == "False" ? Readiness::kNotReady
                                : Readiness::kUnknown;
  });
  return node;
}

}  // namespace dra::api
