#include "controller/api/Device.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const AttributeValue* Device::FindAttribute(std::string_view key) const {
  for (const auto& [k, v] : attributes)
    if (k == key) return &v;
  return nullptr;
}

const kube::Quantity* Device::FindCapacity(std::string_view key) const {
  for (const auto& [k, v] : capacity)
    if (k == key) return &v;
  return nullptr;
}

kube::Result<Device> Device::FromJson(simdjson::dom::element object) {
  Device device;
  device.name = kube::json::StringOr(object, "name");
  if (device.name.empty()) return kube::Status(kube::StatusCode::kParseError, "device has no name");

  simdjson::dom::element attributes = kube::json::Field(object, "attributes");
  device.attributes.reserve(json::Size(attributes));
  json::ForEachMember(attributes, [&](std::string_view key, simdjson::dom::element value) {
    std::string_view s;
    int64_t i = 0;
    bool b = false;
    if (kube::json::Field(value, "string").get(s) == simdjson::SUCCESS) {
      device.attributes.emplace_back(std::string(key), std::string(s));
    } else if (kube::json::Field(value, "version").get(s) == simdjson::SUCCESS) {
      device.attributes.emplace_back(std::string(key), VersionString{std::string(s)});
    } else if (kube::json::Field(value, "int").get(i) == simdjson::SUCCESS) {
      device.attributes.emplace_back(std::string(key), i);
    } else if (kube::json::Field(value, "bool").get(b) == simdjson::SUCCESS) {
      device.attributes.emplace_back(std::string(key), b);
    } else if (kube::json::IsArray(kube::json::Field(value, "ints")) ||
               kube::json::IsArray(kube::json::Field(value, "bools")) ||
               kube::json::IsArray(kube::json::Field(value, "strings")) ||
               kube::json::IsArray(kube::json::Field(value, "versions"))) {
      device.has_list_attributes = true;
    }
  });
  device.attributes.shrink_to_fit();

  simdjson::dom::element capacity = kube::json::Field(object, "capacity");
  device.capacity.reserve(json::Size(capacity));
  json::ForEachMember(capacity, [&](std::string_view key, simdjson::dom::element value) {
    auto quantity = json::QuantityValue(kube::json::Field(value, "value"));
    if (quantity.has_value()) device.capacity.emplace_back(std::string(key), *quantity);
  });
  device.capacity.shrink_to_fit();

  simdjson::dom::element taints = kube::json::Field(object, "taints");
  device.taints.reserve(json::Size(taints));
  json::ForEachElement(taints, [&](simdjson::dom::element taint) {
    auto parsed = DeviceTaint::FromJson(taint);
    if (parsed.ok()) device.taints.push_back(std::move(*parsed));
  });

  device.consumes_counters = static_cast<uint8_t>(
      std::min<size_t>(json::Size(kube::json::Field(object, "consumesCounters")), 255));
  device.allow_multiple_allocations = kube::json::BoolOr(object, "allowMultipleAllocations");
  device.node_name = kube::json::StringOr(object, "nodeName");
  device.all_nodes = kube::json::BoolOr(object, "allNodes");
  simdjson::dom::element node_selector = kube::json::Field(object, "nodeSelector");
  if (kube::json::IsObject(node_selector)) {
    device.node_selector = std::make_shared<NodeSelector>(NodeSelector::FromJson(node_selector));
  }
  return device;
}

}  // namespace dra::api
