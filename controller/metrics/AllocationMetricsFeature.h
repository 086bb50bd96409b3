#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "controller/metrics/AllocationMetrics.h"
#include "controller/metrics/ExpositionCache.h"
#include "src/base/BackgroundThread.h"
#include "src/manager/Manager.h"

namespace dra::metrics {

// Wires the allocation metrics into `run`: watches Pods and Nodes (shared
// informers, api::PodView / api::NodeView), raises a flag on every change of
// the inventory's informers (DeviceTaintRules included when served), Pods and
// Nodes, and renders the families to text at most once per `min_interval`
// (or ten times the last refresh's duration, if longer) while changes
// arrive, and every `max_interval` regardless (for the health provider).
// The Manager's /metrics appends the last text (an exposition source named
// "allocation-metrics"), so between changes a scrape writes the cached text
// to the socket as it is, without copying it.
class AllocationMetricsFeature {
 public:
  struct Options {
    std::vector<std::string> device_attributes;  // --metrics-device-attributes
    UnhealthyDevicesProvider unhealthy_devices;  // wired to DeviceHealth at merge
    // The informers unhealthy_devices reads; refreshes wait for them too.
    std::vector<kube::InformerDependency> unhealthy_devices_waits_for;
    std::chrono::milliseconds min_interval{1000};
    std::chrono::milliseconds max_interval{30000};
  };

  static std::unique_ptr<AllocationMetricsFeature> Register(
      kube::Manager& manager, const inventory::Inventory& inventory,
      inventory::InventoryInformers& inventory_informers, Options options);
  ~AllocationMetricsFeature();

  // Recomputes now (tests and the first refresh after sync).
  kube::Status Refresh();

 private:
  AllocationMetricsFeature(kube::Manager& manager, const inventory::Inventory& inventory,
                           inventory::InventoryInformers& inventory_informers, Options options);
  void Loop();

  Options options_;
  std::shared_ptr<std::atomic<bool>> dirty_;
  std::shared_ptr<ExpositionCache> cache_;  // shared with the Manager's /metrics
  std::unique_ptr<AllocationMetrics> metrics_;
  kube::BackgroundThread thread_;
};

}  // namespace dra::metrics
