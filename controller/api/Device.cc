#include "controller/api/Device.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {
namespace {

// Reads one attribute ({string|version|int|bool: v}); false when it has
// another form (the alpha list forms, or one this version does not know).
bool ParseAttribute(std::string_view key, simdjson::dom::element value, Device& device) {
  std::string_view s;
  int64_t i = 0;
  bool b = false;
  if (kube::json::Field(value, "string").get(s) == simdjson::SUCCESS) {
    device.attributes.emplace_back(key, kube::InternedString(s));
  } else if (kube::json::Field(value, "version").get(s) == simdjson::SUCCESS) {
    device.attributes.emplace_back(key, VersionString{s});
  } else if (kube::json::Field(value, "int").get(i) == simdjson::SUCCESS) {
    device.attributes.emplace_back(key, i);
  } else if (kube::json::Field(value, "bool").get(b) == simdjson::SUCCESS) {
    device.attributes.emplace_back(key, b);
  } else {
    device.has_list_attributes = device.has_list_attributes ||
                                 kube::json::IsArray(kube::json::Field(value, "ints")) ||
                                 kube::json::IsArray(kube::json::Field(value, "bools")) ||
                                 kube::json::IsArray(kube::json::Field(value, "strings")) ||
                                 kube::json::IsArray(kube::json::Field(value, "versions"));
    return false;
  }
  return true;
}

void ParseCapacity(simdjson::dom::element capacity, const std::string& path, Device& device,
                   std::vector<std::string>& warnings) {
  device.capacity.reserve(json::Size(capacity));
  json::ForEachMember(capacity, [&](std::string_view key, simdjson::dom::element value) {
    auto quantity = json::QuantityValue(kube::json::Field(value, "value"));
    simdjson::dom::element policy = kube::json::Field(value, "requestPolicy");
    CapacityPolicy parsed;
    if (!quantity.has_value() || !CapacityPolicy::FromJson(policy, parsed)) {
      device.has_skipped_fields = true;
      warnings.push_back(path + ".capacity[" + std::string(key) + "]: invalid quantity; skipped");
      return;
    }
    device.capacity.emplace_back(key, *quantity);
    if (kube::json::IsObject(policy)) device.capacity_policies.emplace_back(key, parsed);
  });
  device.capacity.shrink_to_fit();
}

void ParseCounters(simdjson::dom::element counters, const std::string& path, Device& device,
                   std::vector<std::string>& warnings) {
  device.consumes_counters.reserve(json::Size(counters));
  size_t index = 0;
  json::ForEachElement(counters, [&](simdjson::dom::element entry) {
    std::string entry_path = path + ".consumesCounters[" + std::to_string(index++) + "]";
    size_t before = warnings.size();
    auto set = CounterSet::FromJson(entry, "counterSet", entry_path, warnings);
    if (set.ok()) device.consumes_counters.push_back(std::move(*set));
    if (!set.ok()) warnings.push_back(set.status().message() + "; skipped");
    if (!set.ok() || warnings.size() != before) device.has_skipped_fields = true;
  });
}

}  // namespace

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

const CapacityPolicy* Device::FindCapacityPolicy(std::string_view key) const {
  for (const auto& [k, v] : capacity_policies)
    if (k == key) return &v;
  return nullptr;
}

kube::Result<Device> Device::FromJson(simdjson::dom::element object, const std::string& path,
                                      std::vector<std::string>& warnings) {
  Device device;
  device.name = kube::json::StringOr(object, "name");
  if (device.name.empty()) {
    return kube::Status(kube::StatusCode::kParseError, path + ": device has no name");
  }

  simdjson::dom::element attributes = kube::json::Field(object, "attributes");
  device.attributes.reserve(json::Size(attributes));
  json::ForEachMember(attributes, [&](std::string_view key, simdjson::dom::element value) {
    if (ParseAttribute(key, value, device)) return;
    device.has_skipped_fields = true;
    warnings.push_back(path + ".attributes[" + std::string(key) +
                       "]: list-typed or unknown attribute type; skipped");
  });
  device.attributes.shrink_to_fit();

  ParseCapacity(kube::json::Field(object, "capacity"), path, device, warnings);

  simdjson::dom::element taints = kube::json::Field(object, "taints");
  device.taints.reserve(json::Size(taints));
  json::ForEachElement(taints, [&](simdjson::dom::element taint) {
    auto parsed = DeviceTaint::FromJson(taint);
    if (parsed.ok()) {
      device.taints.push_back(std::move(*parsed));
    } else {
      device.has_skipped_fields = true;
      warnings.push_back(path + ".taints: " + parsed.status().message() + "; skipped");
    }
  });

  ParseCounters(kube::json::Field(object, "consumesCounters"), path, device, warnings);
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
