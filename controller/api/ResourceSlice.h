#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "controller/api/CounterSet.h"
#include "controller/api/Device.h"
#include "controller/api/NodeSelector.h"
#include "src/base/Result.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// resource.k8s.io/v1 ResourceSlice: pool, node selection, devices and shared
// counters. Binding conditions are not kept.
struct ResourceSlice {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;

  // Exactly one is set by the API server; kUnspecified if none (or unknown).
  enum class NodeSelection : uint8_t {
    kUnspecified,
    kNodeName,
    kNodeSelector,
    kAllNodes,
    kPerDevice
  };

  struct Pool {
    std::string name;
    int64_t generation = 0;
    int64_t resource_slice_count = 0;
  };

  kube::ObjectMeta meta;
  std::string driver;
  Pool pool;
  NodeSelection node_selection = NodeSelection::kUnspecified;
  std::string node_name;                              // with kNodeName
  std::shared_ptr<const NodeSelector> node_selector;  // with kNodeSelector (parse errors kept)
  std::vector<Device> devices;
  // Counter sets of a partitionable pool. The API allows either these or
  // `devices` in one slice; the allocator ignores the devices of a slice
  // that has counter sets (pools_*.go, buildPool).
  std::vector<CounterSet> shared_counters;
  // What was skipped while projecting: nameless devices, counter sets without
  // a name, and the devices' skipped fields (Device::FromJson), each with
  // its path ("spec.devices[2].attributes[x]: ...").
  std::vector<std::string> warnings;

  // (domain, name) of an attribute or capacity key: "gpu.example.com/model"
  // -> ("gpu.example.com", "model"); an unqualified "model" takes `driver` as
  // its domain, as DRA CEL's device.attributes["<domain>"].<name> does.
  static std::pair<std::string_view, std::string_view> SplitAttributeKey(std::string_view key,
                                                                         std::string_view driver);
  std::pair<std::string_view, std::string_view> SplitAttributeKey(std::string_view key) const {
    return SplitAttributeKey(key, driver);
  }

  // Errors: no metadata.name, a non-integer pool generation or
  // resourceSliceCount. A device without a name is skipped and reported in
  // `warnings`; the rest of the slice is kept.
  static kube::Result<ResourceSlice> FromJson(simdjson::dom::element object);
};

}  // namespace dra::api
