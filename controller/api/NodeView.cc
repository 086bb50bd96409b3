#include "controller/api/NodeView.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"
#include "src/proto/ProtoFields.h"
#include "src/proto/ProtoReader.h"

namespace dra::api {

const kube::ResourceType NodeView::kResource{"", "v1", "nodes", false, "Node"};

kube::Quantity NodeView::Allocatable(std::string_view name) const {
  for (const auto& [n, q] : allocatable_extended)
    if (n == name) return q;
  return kube::Quantity();
}

bool NodeView::IsExtendedResourceName(std::string_view name) {
  return json::ContainsSlash(name) && name.find("kubernetes.io/") == std::string_view::npos;
}

namespace {

// core/v1 Node, NodeSpec, NodeStatus and NodeCondition field numbers.
constexpr uint32_t kSpec = 2, kStatus = 3, kUnschedulable = 4, kAllocatable = 2, kConditions = 4;
constexpr uint32_t kConditionType = 1, kConditionStatus = 2;

NodeView::Readiness ReadinessOf(std::string_view status) {
  return status == "True"    ? NodeView::Readiness::kReady
         : status == "False" ? NodeView::Readiness::kNotReady
                             : NodeView::Readiness::kUnknown;
}

kube::Status ReadAllocatable(std::string_view entry, NodeView& node) {
  auto parts = kube::ProtoFields::QuantityEntry(entry);
  if (!parts.ok()) return parts.status();
  if (!NodeView::IsExtendedResourceName(parts->first)) return kube::Status::Ok();
  auto quantity = kube::Quantity::Parse(parts->second.value_or(""));
  if (quantity.ok()) node.allocatable_extended.emplace_back(std::string(parts->first), *quantity);
  return kube::Status::Ok();
}

kube::Status ReadCondition(std::string_view message, NodeView& node) {
  auto type = kube::ProtoFields::Find(message, kConditionType);
  if (!type.ok()) return type.status();
  if (type->value_or("") != "Ready") return kube::Status::Ok();
  auto status = kube::ProtoFields::Find(message, kConditionStatus);
  if (!status.ok()) return status.status();
  node.ready = ReadinessOf(status->value_or(""));
  return kube::Status::Ok();
}

kube::Status ReadStatus(std::string_view message, NodeView& node) {
  kube::ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kAllocatable) KUBE_RETURN_IF_ERROR(ReadAllocatable(reader.bytes(), node));
    if (reader.field() == kConditions) KUBE_RETURN_IF_ERROR(ReadCondition(reader.bytes(), node));
  }
  return reader.status().WithContext("status");
}

kube::Status ReadSpec(std::string_view message, NodeView& node) {
  kube::ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == kUnschedulable && reader.is_varint())
      node.unschedulable = reader.AsBool();
  }
  return reader.status().WithContext("spec");
}

}  // namespace

kube::Result<NodeView> NodeView::FromProto(std::string_view object) {
  NodeView node;
  KUBE_ASSIGN_OR_RETURN(node.meta, kube::ObjectMeta::FromProto(object));
  kube::ProtoReader reader(object);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kSpec) KUBE_RETURN_IF_ERROR(ReadSpec(reader.bytes(), node));
    if (reader.field() == kStatus) KUBE_RETURN_IF_ERROR(ReadStatus(reader.bytes(), node));
  }
  if (!reader.ok()) return reader.status().WithContext("node");
  node.allocatable_extended.shrink_to_fit();
  return node;
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
    node.ready = ReadinessOf(kube::json::StringOr(c, "status"));
  });
  return node;
}

}  // namespace dra::api
