#pragma once

#include <memory>

#include "controller/extended/ExtendedOptions.h"
#include "controller/extended/FindingReporter.h"
#include "controller/extended/LeakReconciler.h"
#include "controller/extended/MappingReconciler.h"
#include "controller/extended/PodEventReconciler.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/base/Result.h"
#include "src/manager/Manager.h"

namespace dra::extended {

// Puts the extended-resource features on a Manager: the DeviceClass, Node and
// ResourceSlice, Pod and ResourceClaim informers (shared through the
// registry), the Manager's Event recorder, and the leader-only mapping,
// Pod-event and leak-audit reconcilers. Keeps them alive; destroy it after
// the Manager has stopped. An error when a reconciler cannot be added.
class ExtendedWiring {
 public:
  static kube::Result<std::unique_ptr<ExtendedWiring>> Register(
      kube::Manager& manager, const inventory::Inventory& inventory,
      inventory::InventoryInformers& informers, const ExtendedOptions& options);

  MappingReconciler& mapping() { return *mapping_; }

 private:
  ExtendedWiring() = default;
  kube::Status Touch(kube::RestClient& client, const std::string& class_name);

  std::unique_ptr<FindingReporter> reporter_;
  std::shared_ptr<MappingReconciler> mapping_;
  std::shared_ptr<PodEventReconciler> pods_;
  std::shared_ptr<LeakReconciler> leaks_;
};

}  // namespace dra::extended
