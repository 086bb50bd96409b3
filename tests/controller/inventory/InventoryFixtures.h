#pragma once

// Builders for DRA objects as the informers would deliver them.

#include <memory>
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
    claim->results.push_back({"gpu", "gpu.example.com", held.pool, held.device, {}});
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

}  // namespace dra::testing
