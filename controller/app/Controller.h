#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/app/Features.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/base/Status.h"
#include "src/cache/WatchListMode.h"
#include "src/config/RestConfig.h"
#include "src/manager/Manager.h"

namespace dra::app {

// The `dra-controller run` process as DRA wiring on a kube::Manager: which
// API groups to discover, which informers feed the device inventory, which
// reconcilers run, and which checks gate readiness. Everything generic
// (servers, clients, leader election, start/stop order) is the Manager's.
class Controller {
 public:
  // `features` have parsed their flags already.
  Controller(kube::RestConfig config, kube::ManagerOptions options, FeatureList features,
             kube::WatchListMode watch_list = kube::WatchListMode::kAuto);
  ~Controller();

  // Features --controllers leaves out: exported as off, NotSelected.
  void SetNotSelected(std::vector<std::string> names) { not_selected_ = std::move(names); }
  kube::Status Start();
  kube::Status Stop();

  bool ready() const { return manager_.ready(); }
  bool leading() const { return manager_.leading(); }
  int health_port() const { return manager_.health_port(); }
  int metrics_port() const { return manager_.metrics_port(); }

  // The options `run` starts from: discovery of resource.k8s.io/v1.
  static kube::ManagerOptions DefaultOptions();
  // dra_controller_build_info{version} on `registry`.
  static void RegisterBuildInfo(const std::shared_ptr<prometheus::Registry>& registry);

 private:
  kube::Status Wire(kube::Manager& manager, const kube::ApiDiscovery& discovery);
  kube::Status WireFeatures(kube::Manager& manager, const kube::ApiDiscovery& discovery);
  void AddInventoryChecks(kube::Manager& manager);

  kube::Manager manager_;
  std::unique_ptr<inventory::Inventory> inventory_;
  std::unique_ptr<inventory::InventoryInformers> inventory_informers_;
  feature::FeatureStates states_;
  std::vector<std::string> not_selected_;
  FeatureList features_;  // destroyed before the inventory they read
  kube::WatchListMode watch_list_;
};

}  // namespace dra::app
