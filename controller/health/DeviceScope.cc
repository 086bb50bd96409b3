#include "controller/health/DeviceScope.h"

#include <set>

namespace dra::health {

ScopeView DeviceScope::Resolve(const inventory::Inventory& inventory,
                               const api::DeviceHealth& health) {
  ScopeView view;
  if (!health.device.empty()) {
    auto found = inventory.Find({health.driver, health.pool, health.device});
    if (found.has_value()) view.devices.push_back(std::move(*found));
  } else {
    view.devices = inventory.PoolDevices(health.driver, health.pool);
  }
  view.pool_complete = !view.devices.empty();
  std::set<std::string> seen;
  for (const auto& device : view.devices) {
    view.pool_complete = view.pool_complete && device.pool_complete;
    for (auto& pod : inventory.PodsUsing(device.key)) {
      if (seen.insert(pod.namespace_name + "/" + pod.name).second) {
        view.pods.push_back(std::move(pod));
      }
    }
  }
  return view;
}

FleetSize DeviceScope::Fleet(const inventory::Inventory& inventory) {
  FleetSize fleet;
  for (const auto& [pool_id, size] : inventory.DevicesPerPool()) {
    fleet.by_pool[pool_id] += static_cast<int>(size);
    fleet.by_driver[pool_id.substr(0, pool_id.find('/'))] += static_cast<int>(size);
  }
  return fleet;
}

bool DeviceScope::NamesAnyOf(const api::DeviceHealth& health,
                             std::span<const api::ResourceClaim::AllocationResult> results) {
  for (const auto& r : results) {
    if (r.driver != health.driver || r.pool != health.pool) continue;
    if (health.device.empty() || r.device == health.device) return true;
  }
  return false;
}

}  // namespace dra::health
