#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/NodeView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/inventory/ChangeObservers.h"
#include "controller/inventory/Inventory.h"
#include "src/cache/Informer.h"
#include "src/cache/InformerRegistry.h"

namespace dra::inventory {

// Registers (or reuses) the informers an Inventory needs and feeds their
// events into it. The registry starts and stops them. Without
// `with_taint_rules` (a cluster that does not serve DeviceTaintRules) only
// slice taints are known.
class InventoryInformers {
 public:
  // `taint_rules`: where the cluster serves DeviceTaintRules (TaintRuleApi),
  // nullopt where it serves none.
  InventoryInformers(
      kube::InformerRegistry& registry, Inventory& inventory,
      std::optional<kube::ResourceType> taint_rules = api::DeviceTaintRule::kResource);

  // True once every informer has listed.
  bool WaitForSync(std::chrono::milliseconds timeout);

  // What the set of devices, their classes, claims and taints is built
  // from: DeviceClasses, ResourceSlices, ResourceClaims, DeviceTaintRules
  // (when served). Not Nodes: their labels only place devices behind a node
  // selector on nodes, so features that count per node wait for nodes() too.
  std::vector<kube::InformerDependency> DeviceDependencies();

  kube::Informer<api::ResourceSlice>& slices() { return slices_; }
  kube::Informer<api::ResourceClaim>& claims() { return claims_; }
  kube::Informer<api::NodeView>& nodes() { return nodes_; }
  kube::Informer<api::DeviceClass>& classes() { return classes_; }
  // nullptr without taint rules.
  kube::Informer<api::DeviceTaintRule>* rules() { return rules_; }
  // The REST resource of rules(); nullopt without taint rules.
  const std::optional<kube::ResourceType>& taint_rule_resource() const {
    return taint_rule_resource_;
  }

  // Told of each slice or claim once the Inventory has applied (or removed)
  // it, on the feed's thread; a handler of slices() or claims() may run
  // before that. Observers must be quick (e.g. only queue keys).
  void AfterSliceChange(ChangeObservers<api::ResourceSlice>::Observer observer) {
    slice_observers_->Add(std::move(observer));
  }
  void AfterClaimChange(ChangeObservers<api::ResourceClaim>::Observer observer) {
    claim_observers_->Add(std::move(observer));
  }

 private:
  kube::Informer<api::DeviceClass>& classes_;
  kube::Informer<api::ResourceSlice>& slices_;
  kube::Informer<api::ResourceClaim>& claims_;
  kube::Informer<api::NodeView>& nodes_;
  kube::Informer<api::DeviceTaintRule>* rules_ = nullptr;
  std::optional<kube::ResourceType> taint_rule_resource_;
  std::shared_ptr<ChangeObservers<api::ResourceSlice>> slice_observers_ =
      std::make_shared<ChangeObservers<api::ResourceSlice>>();
  std::shared_ptr<ChangeObservers<api::ResourceClaim>> claim_observers_ =
      std::make_shared<ChangeObservers<api::ResourceClaim>>();
};

}  // namespace dra::inventory
