#pragma once

// A small fixed cluster for the allocation-metrics tests: three nodes, one
// pool incomplete, three classes (two naming example.com/gpu), claims of all
// three sources, a NoExecute DeviceTaintRule, one Pending Pod and a node
// whose device plugin advertises the DRA-mapped name.

#include <memory>
#include <string>
#include <vector>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/inventory/Inventory.h"
#include "controller/metrics/MetricsSources.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {

struct MetricsFixture {
  inventory::Inventory inventory;
  std::vector<std::shared_ptr<const api::PodView>> pods;
  std::vector<std::shared_ptr<const api::NodeView>> nodes;
  std::vector<std::string> unhealthy{"gpu.example.com/node-a/gpu-1"};

  MetricsFixture() {
    inventory.ApplySlice(
        Slice("node-a-gpus", "node-a", {Gpu("gpu-0", 80, "a100"), Gpu("gpu-1", 80, "a100")}));
    inventory.ApplySlice(
        Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "h100"), Gpu("gpu-1", 80, "h100")}));
    inventory.ApplySlice(Slice("node-c-gpus", "node-c", {Gpu("gpu-0", 40, "a100")}, 3, 2));
    inventory.ApplyClass(NamedClass("gpu", "device.driver == 'gpu.example.com'", 200));
    inventory.ApplyClass(NamedClass("old-gpu", "device.driver == 'gpu.example.com'", 100));
    inventory.ApplyClass(Class("a100", {"device.attributes['gpu.example.com'].model == 'a100'"}));
    inventory.ApplyClaim(TemplateClaim());
    inventory.ApplyClaim(ImplicitClaim());
    inventory.ApplyClaim(Claim("team-b", "pending", {}));
    inventory.ApplyTaintRule(TaintRule("gpu-b1", "node-b", "gpu-1", api::TaintEffect::kNoExecute));
    pods.push_back(Pod("team-a", "infer-0", "infer-uid", "node-b", "Running"));
    pods.push_back(Pod("team-a", "waiting", "waiting-uid", "", "Pending"));
    nodes.push_back(Node("node-a", 0));
    nodes.push_back(Node("node-b", 2));
  }

  metrics::MetricsSources Sources() {
    return {.inventory = &inventory,
            .unhealthy_devices = [this] { return unhealthy; },
            .pods = [this] { return pods; },
            .nodes = [this] { return nodes; },
            .device_attributes = {"model", "gpu.example.com/driverVersion"}};
  }

  static std::shared_ptr<const api::DeviceClass> NamedClass(const std::string& name,
                                                            const std::string& selector,
                                                            int64_t created) {
    auto cls = std::make_shared<api::DeviceClass>(*Class(name, {selector}));
    cls->extended_resource_name = "example.com/gpu";
    cls->creation_timestamp = created;
    return cls;
  }

  static std::shared_ptr<const api::ResourceClaim> TemplateClaim() {
    auto claim = std::make_shared<api::ResourceClaim>(
        *Claim("team-a", "train-0-gpu", {{"node-a", "gpu-0"}}, {"train-0"}));
    claim->pod_claim_name = "gpu";
    return claim;
  }

  static std::shared_ptr<const api::ResourceClaim> ImplicitClaim() {
    auto claim = std::make_shared<api::ResourceClaim>(
        *Claim("team-a", "infer-0-extended-resources", {{"node-b", "gpu-0"}}, {"infer-0"}));
    claim->extended_resource_claim = true;
    claim->controller = api::ResourceClaim::OwnerReference{"Pod", "infer-0", "infer-uid"};
    return claim;
  }

  static std::shared_ptr<const api::PodView> Pod(const std::string& ns, const std::string& name,
                                                 const std::string& uid, const std::string& node,
                                                 const std::string& phase) {
    auto pod = std::make_shared<api::PodView>();
    pod->meta.namespace_name = ns;
    pod->meta.name = name;
    pod->meta.uid = uid;
    pod->node_name = node;
    pod->phase = phase;
    api::PodView::Container container;
    container.name = "main";
    api::PodView::ExtendedResource gpu;
    gpu.name = "example.com/gpu";
    gpu.request = kube::Quantity::FromInt64(1);
    gpu.limit = gpu.request;
    gpu.has_limit = true;
    container.resources.push_back(gpu);
    pod->containers.push_back(container);
    return pod;
  }

  static std::shared_ptr<const api::NodeView> Node(const std::string& name, int64_t plugin_gpus) {
    auto node = std::make_shared<api::NodeView>();
    node->meta.name = name;
    if (plugin_gpus > 0) {
      node->allocatable_extended.emplace_back("example.com/gpu",
                                              kube::Quantity::FromInt64(plugin_gpus));
    }
    return node;
  }
};

}  // namespace dra::testing
