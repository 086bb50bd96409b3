#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "controller/feature/FeatureStates.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/cache/Informer.h"
#include "src/manager/ApiDiscovery.h"
#include "src/manager/Manager.h"

namespace dra::feature {

// What a feature publishes about unhealthy devices for other features (the
// allocation metrics) to read; empty while device health is off.
struct UnhealthyDevices {
  // "driver/pool/device" of every device currently declared Unhealthy.
  std::function<std::vector<std::string>()> keys;
  // The informers `keys` reads.
  std::vector<kube::InformerDependency> waits_for;
  // Raises the flag whenever what `keys` reads changed.
  std::function<void(std::shared_ptr<std::atomic<bool>>)> watch;
};

// What every feature wires onto: the Manager, what the API server serves,
// and the device inventory with its informers. Features wired earlier may
// leave signals here for later ones. A feature that is off or only reports on
// this cluster says so in `states` (one that says nothing is "Wired").
struct FeatureContext {
  kube::Manager& manager;
  const kube::ApiDiscovery& discovery;
  inventory::Inventory& inventory;
  inventory::InventoryInformers& informers;
  FeatureStates& states;
  UnhealthyDevices unhealthy_devices;
  // Device health writes DeviceTaintRules (wired, not dry-run): the
  // monitoring sources then close a device before their DeviceHealth says it
  // is bad (health::RuleFirstWriter).
  bool health_writes_rules = false;
};

}  // namespace dra::feature
