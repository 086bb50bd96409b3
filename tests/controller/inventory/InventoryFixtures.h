#pragma once

// Builders for DRA objects as the informers would deliver them.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"

namespace dra::testing {

inline api::Device Gpu(const std::string& name, int64_t memory_gi, const std::string& model) {
  api::Device device;
  device.name = name;
  device.attributes.emplace_back("type", api::AttributeValue(std::string("gpu")));
  device.attributes.emplace_back("model", api::AttributeValue(model));
  device.attributes.emplace_back("driverVersion", api::AttributeValue(api::VersionString{"1.2.3"}));
  device.capacity.emplace_back("memory", kube::Quantity::FromInt64(memory_gi << 30));
  return device;
}

inline std::shared_ptr<const api::ResourceSlice> Slice(
    const std::string& name, const std::string& node, std::vector<api::Device> devices,
    int64_t generation = 1, int64_t slice_count = 1, const std::string& pool = "") {
  auto slice = std::make_shared<api::ResourceSlice>();
  slice->meta.name = name;
  slice->driver = "gpu.example.com";
  slice->pool.name = pool.empty() ? node : pool;
  slice->pool.generation = generation;
  slice->pool.resource_slice_count = slice_count;
  slice->node_selection = api::ResourceSlice::NodeSelection::kNodeName;
  slice->node_name = node;
  slice->devices = std::move(devices);
  return slice;
}

inline std::shared_ptr<const api::DeviceClass> Class(const std::string& name,
                                                     std::vector<std::string> selectors) {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = name;
  cls->selectors = std::move(selectors);
  return cls;
}

// A DeviceClass created at `created` (seconds) that names `resource` in
// spec.extendedResourceName (nullopt: only its implicit name).
inline std::shared_ptr<const api::DeviceClass> MappedClass(const std::string& name, int64_t created,
                                                           std::optional<std::string> resource) {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = name;
  cls->creation_timestamp = created;
  cls->extended_resource_name = std::move(resource);
  return cls;
}

struct Held {
  std::string pool;
  std::string device;
};

inline std::shared_ptr<const api::ResourceClaim> Claim(const std::string& ns,
                                                       const std::string& name,
                                                       std::vector<Held> devices,
                                                       std::vector<std::string> pods = {}) {
  auto claim = std::make_shared<api::ResourceClaim>();
  claim->meta.namespace_name = ns;
  claim->meta.name = name;
  claim->allocated = !devices.empty();
  for (const auto& held : devices) {
    claim->results.push_back({"gpu", "gpu.example.com", held.pool, held.device, {}, false, "", {}});
  }
  for (const auto& pod : pods) claim->reserved_for.push_back({"pods", pod, pod + "-uid"});
  return claim;
}

inline std::shared_ptr<const api::DeviceTaintRule> TaintRule(const std::string& name,
                                                             const std::string& pool,
                                                             const std::string& device,
                                                             api::TaintEffect effect) {
  auto rule = std::make_shared<api::DeviceTaintRule>();
  rule->meta.name = name;
  rule->selector = api::DeviceTaintRule::Selector{"gpu.example.com", pool, device};
  rule->taint.key = "dra-controller.dev/unhealthy";
  rule->taint.value = "xid-79";
  rule->taint.effect = effect;
  return rule;
}

// `device` with a taint its driver publishes in the slice.
inline api::Device DriverTainted(api::Device device, const std::string& key,
                                 const std::string& value, api::TaintEffect effect) {
  device.taints.push_back({key, value, effect, "", 0});
  return device;
}

// A counter set ({name, counters}) or a device's consumption of one.
inline api::CounterSet Counters(const std::string& name,
                                std::vector<std::pair<std::string, int64_t>> counters) {
  api::CounterSet set;
  set.name = name;
  for (const auto& [counter, value] : counters) {
    set.counters.emplace_back(counter, kube::Quantity::FromInt64(value));
  }
  return set;
}

// A slice that only publishes counter sets (a partitionable pool's first part).
inline std::shared_ptr<const api::ResourceSlice> CounterSlice(const std::string& name,
                                                              const std::string& pool,
                                                              std::vector<api::CounterSet> sets,
                                                              int64_t slice_count = 2) {
  auto slice = std::const_pointer_cast<api::ResourceSlice>(Slice(name, pool, {}, 1, slice_count));
  slice->shared_counters = std::move(sets);
  return slice;
}

// A device (a whole GPU or a partition) consuming `memory_gi` of counter
// set `set`'s "memory".
inline api::Device Partition(const std::string& name, const std::string& set, int64_t memory_gi) {
  api::Device device = Gpu(name, memory_gi, "partition");
  device.consumes_counters.push_back(Counters(set, {{"memory", memory_gi << 30}}));
  return device;
}

// An allocation result, optionally with adminAccess or as a share.
inline api::ResourceClaim::AllocationResult Result(const std::string& pool,
                                                   const std::string& device,
                                                   bool admin_access = false,
                                                   const std::string& share_id = "") {
  api::ResourceClaim::AllocationResult result;
  result.request = "gpu";
  result.driver = "gpu.example.com";
  result.pool = pool;
  result.device = device;
  result.admin_access = admin_access;
  result.share_id = share_id;
  return result;
}

inline std::shared_ptr<const api::ResourceClaim> ClaimOf(
    const std::string& name, std::vector<api::ResourceClaim::AllocationResult> results,
    std::vector<std::string> pods = {}) {
  auto claim = std::const_pointer_cast<api::ResourceClaim>(Claim("default", name, {}, pods));
  claim->allocated = !results.empty();
  claim->results = std::move(results);
  return claim;
}

}  // namespace dra::testing
