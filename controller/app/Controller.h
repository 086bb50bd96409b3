#pragma once

#include <memory>

#include "controller/app/FeatureOptions.h"
#include "controller/extended/ExtendedWiring.h"
#include "controller/health/HealthWiring.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "controller/metrics/AllocationMetricsFeature.h"
#include "src/base/Status.h"
#include "src/config/RestConfig.h"
#include "src/manager/Manager.h"

namespace dra::app {

// The `dra-controller run` process as DRA wiring on a kube::Manager: which
// API groups to discover, which informers feed the device inventory, which
// reconcilers run, and which checks gate readiness. Everything generic
// (servers, clients, leader election, start/stop order) is the Manager's.
class Controller {
 public:
  Controller(kube::RestConfig config, kube::ManagerOptions options, FeatureOptions features = {});
  ~Controller();

  kube::Status Start();
  kube::Status Stop();

  bool ready() const { return manager_.ready(); }
  bool leading() const { return manager_.leading(); }
  int health_port() const { return manager_.health_port(); }
  int metrics_port() const { return manager_.metrics_port(); }

  // The options `run` starts from: discovery of resource.k8s.io/v1.
  static kube::ManagerOptions DefaultOptions();

 private:
  kube::Status Wire(kube::Manager& manager, const kube::ApiDiscovery& discovery);
  void RegisterBuildInfo();
  metrics::AllocationMetricsFeature::Options MetricsOptions() const;

  kube::Manager manager_;
  FeatureOptions features_;
  std::unique_ptr<inventory::Inventory> inventory_;
  std::unique_ptr<inventory::InventoryInformers> inventory_informers_;
  std::unique_ptr<health::HealthWiring> health_;  // Device health (#9); null when off
  std::unique_ptr<extended::ExtendedWiring> extended_;
  std::unique_ptr<metrics::AllocationMetricsFeature> allocation_metrics_;
};

}  // namespace dra::app
