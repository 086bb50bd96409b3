#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/health/DeviceHealthReconciler.h"
#include "controller/health/HealthOptions.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/base/Result.h"
#include "src/cache/Informer.h"
#include "src/manager/Manager.h"

namespace dra::health {

// Plugs device health into a Manager: the DeviceHealth informer, the
// leader-only "devicehealth" controller (DeviceHealth, DeviceTaintRule,
// ResourceSlice and ResourceClaim events become DeviceHealth keys, the last
// two once the Inventory has applied them; see HealthKeys) and the
// Manager's Event recorder. Off (nullptr, with a warning) when the API server
// does not serve dra-controller.dev/v1alpha1 DeviceHealths or DeviceTaintRules;
// an error when the controller cannot be added.
class HealthWiring {
 public:
  static kube::Result<std::unique_ptr<HealthWiring>> Register(
      kube::Manager& manager, inventory::Inventory& inventory,
      inventory::InventoryInformers& informers, const HealthOptions& options);

  DeviceHealthReconciler& reconciler() { return *reconciler_; }
  // "driver/pool/device" of every device a DeviceHealth says is Unhealthy
  // (a pool-wide one names each published device of its pool); for metrics.
  std::vector<std::string> UnhealthyDeviceKeys() const;
  // The DeviceHealth informer, for what reads UnhealthyDeviceKeys().
  kube::InformerDependency HealthDependency() const;
  // Also told of every DeviceHealth change (e.g. the metrics' refresh flag).
  void AddHealthHandler(std::shared_ptr<kube::EventHandler<api::DeviceHealth>> handler);

 private:
  HealthWiring() = default;
  void Watch(kube::ManagedController& controller, inventory::InventoryInformers& informers);

  kube::Informer<api::DeviceHealth>* healths_ = nullptr;
  const inventory::Inventory* inventory_ = nullptr;
  DeviceAttributeNames attribute_names_;
  std::shared_ptr<DeviceHealthReconciler> reconciler_;
};

}  // namespace dra::health
