#include "controller/api/ResourceSlice.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::ResourceType ResourceSlice::kResource{"resource.k8s.io", "v1", "resourceslices", false,
                                                  "ResourceSlice"};

std::pair<std::string_view, std::string_view> ResourceSlice::SplitAttributeKey(
    std::string_view key, std::string_view driver) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) return {driver, key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

kube::Result<ResourceSlice> ResourceSlice::FromJson(simdjson::dom::element object) {
  ResourceSlice slice;
  KUBE_ASSIGN_OR_RETURN(slice.meta,
                        kube::ObjectMeta::FromObject(object, kube::ObjectMeta::Labels::kSkip));
  simdjson::dom::element spec = kube::json::Field(object, "spec");
  slice.driver = kube::json::StringOr(spec, "driver");

  simdjson::dom::element pool = kube::json::Field(spec, "pool");
  slice.pool.name = kube::json::StringOr(pool, "name");
  KUBE_ASSIGN_OR_RETURN(slice.pool.generation,
                        json::IntField(pool, "generation", 0, "spec.pool.generation"));
  KUBE_ASSIGN_OR_RETURN(
      slice.pool.resource_slice_count,
      json::IntField(pool, "resourceSliceCount", 0, "spec.pool.resourceSliceCount"));

  std::string_view node_name = kube::json::StringOr(spec, "nodeName");
  if (!node_name.empty()) {
    slice.node_selection = NodeSelection::kNodeName;
    slice.node_name = node_name;
  } else if (kube::json::IsObject(kube::json::Field(spec, "nodeSelector"))) {
    slice.node_selection = NodeSelection::kNodeSelector;
    slice.node_selector = std::make_shared<NodeSelector>(
        NodeSelector::FromJson(kube::json::Field(spec, "nodeSelector")));
  } else if (kube::json::BoolOr(spec, "allNodes")) {
    slice.node_selection = NodeSelection::kAllNodes;
  } else if (kube::json::BoolOr(spec, "perDeviceNodeSelection")) {
    slice.node_selection = NodeSelection::kPerDevice;
  }

  simdjson::dom::element devices = kube::json::Field(spec, "devices");
  slice.devices.reserve(json::Size(devices));
  size_t index = 0;
  json::ForEachElement(devices, [&](simdjson::dom::element d) {
    std::string path = "spec.devices[" + std::to_string(index++) + "]";
    auto device = Device::FromJson(d, path, slice.warnings);
    if (device.ok()) {
      slice.devices.push_back(std::move(*device));
    } else {
      slice.warnings.push_back(device.status().message() + "; skipped");
    }
  });

  simdjson::dom::element counters = kube::json::Field(spec, "sharedCounters");
  slice.shared_counters.reserve(json::Size(counters));
  index = 0;
  json::ForEachElement(counters, [&](simdjson::dom::element c) {
    std::string path = "spec.sharedCounters[" + std::to_string(index++) + "]";
    auto set = CounterSet::FromJson(c, "name", path, slice.warnings);
    if (set.ok()) {
      slice.shared_counters.push_back(std::move(*set));
    } else {
      slice.warnings.push_back(set.status().message() + "; skipped");
    }
  });
  return slice;
}

}  // namespace dra::api
