#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "controller/feature/FeatureContext.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "controller/metrics/AllocationMetrics.h"
#include "controller/metrics/ExpositionCache.h"
#include "controller/metrics/RefreshTrigger.h"
#include "src/base/BackgroundThread.h"
#include "src/manager/Manager.h"

namespace dra::metrics {

// Wires the allocation metrics into `run`: watches Pods and Nodes (shared
// informers, api::PodView / api::NodeView) and re-renders the families to
// text when something they are computed from changed (RefreshTrigger: the
// Inventory's change count, a flag raised by the Pod, Node and DeviceHealth
// informers), at most once per `min_interval` (or ten times the last
// refresh's duration, if longer). Nothing changed, nothing is rendered, except
// once per `max_interval` as a safety net. The Manager's /metrics appends the
// last text (an exposition source named "allocation-metrics"), so between
// changes a scrape writes the cached text to the socket as it is.
class AllocationMetricsWiring {
 public:
  struct Options {
    std::vector<std::string> device_attributes;  // --metrics-device-attributes
    // From device health, when it is on; refreshes wait for its informers too.
    feature::UnhealthyDevices unhealthy_devices;
    std::chrono::milliseconds min_interval{1000};
    std::chrono::milliseconds max_interval{std::chrono::minutes(10)};
  };

  static std::unique_ptr<AllocationMetricsWiring> Register(
      kube::Manager& manager, const inventory::Inventory& inventory,
      inventory::InventoryInformers& inventory_informers, Options options);
  ~AllocationMetricsWiring();

 private:
  AllocationMetricsWiring(kube::Manager& manager, const inventory::Inventory& inventory,
                          Options options);
  void Loop();
  void Render();

  Options options_;
  RefreshTrigger trigger_;
  std::shared_ptr<ExpositionCache> cache_;  // shared with the Manager's /metrics
  std::unique_ptr<AllocationMetrics> metrics_;
  kube::BackgroundThread thread_;
};

}  // namespace dra::metrics
