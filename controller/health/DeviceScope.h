#pragma once

#include <span>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/health/StormGuard.h"
#include "controller/inventory/Inventory.h"

namespace dra::health {

// What a DeviceHealth names in the inventory: its devices (one, or every
// device of the pool), whether they are published in a complete pool, and
// the Pods using them.
struct ScopeView {
  std::vector<inventory::DeviceInfo> devices;
  bool pool_complete = false;           // every matched device is in a complete pool
  std::vector<inventory::PodUse> pods;  // deduplicated by namespace/name
};

class DeviceScope {
 public:
  static ScopeView Resolve(const inventory::Inventory& inventory, const api::DeviceHealth& health);
  // Devices per pool and per driver, for the storm guard's shares.
  static FleetSize Fleet(const inventory::Inventory& inventory);
  // Whether the DeviceHealth names a device of one of these allocation results.
  static bool NamesAnyOf(const api::DeviceHealth& health,
                         std::span<const api::ResourceClaim::AllocationResult> results);
};

}  // namespace dra::health
