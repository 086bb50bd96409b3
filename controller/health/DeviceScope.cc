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
    for (auto& device : inventory.Devices()) {
      if (device.key.driver == health.driver && device.key.pool == health.pool) {
        view.devices.push_back(std::move(device));
      }
    }
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
  for (const auto& device : inventory.Devices()) {
    ++fleet.by_pool[device.key.driver + "/" + device.key.pool];
    ++fleet.by_driver[device.key.driver];
  }
  return fleet;
}

}  // namespace dra::health
