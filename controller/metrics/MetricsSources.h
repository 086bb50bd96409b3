#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/inventory/Inventory.h"

namespace dra::metrics {

// Device keys ("<driver>/<pool>/<device>") that the health feature holds
// unhealthy; wired to DeviceHealth at merge, a fake in tests.
using UnhealthyDevicesProvider = std::function<std::vector<std::string>()>;
using PodLister = std::function<std::vector<std::shared_ptr<const api::PodView>>()>;
using NodeLister = std::function<std::vector<std::shared_ptr<const api::NodeView>>()>;

// What the allocation collectors read at scrape time. Only `inventory` is
// required; a missing lister or provider reads as empty.
struct MetricsSources {
  const inventory::Inventory* inventory = nullptr;
  UnhealthyDevicesProvider unhealthy_devices;
  PodLister pods;
  NodeLister nodes;
  // Device attributes copied onto dra_controller_device_info as labels
  // (--metrics-device-attributes), e.g. "uuid" or "gpu.example.com/uuid".
  std::vector<std::string> device_attributes;

  std::vector<std::shared_ptr<const api::PodView>> ListPods() const {
    return pods ? pods() : std::vector<std::shared_ptr<const api::PodView>>{};
  }
  std::vector<std::shared_ptr<const api::NodeView>> ListNodes() const {
    return nodes ? nodes() : std::vector<std::shared_ptr<const api::NodeView>>{};
  }
  std::vector<std::string> Unhealthy() const {
    return unhealthy_devices ? unhealthy_devices() : std::vector<std::string>{};
  }
};

}  // namespace dra::metrics
