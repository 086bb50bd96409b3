#include "controller/app/Controller.h"

#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include "controller/BuildInfo.h"
#include "controller/metrics/ChangeSignal.h"
#include "src/manager/FunctionRunnable.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::app {
namespace {

constexpr const char* kResourceApi = "resource.k8s.io/v1";
const char* const kInventoryResources[] = {"deviceclasses", "resourceslices", "resourceclaims",
                                           "devicetaintrules"};

}  // namespace

kube::ManagerOptions Controller::DefaultOptions() {
  kube::ManagerOptions options;
  options.leader_election_id = "dra-controller";
  options.discover = {kResourceApi};
  options.required = {kResourceApi};
  options.user_agent = std::string("dra-controller/") + build::kVersion;
  return options;
}

Controller::Controller(kube::RestConfig config, kube::ManagerOptions options,
                       FeatureOptions features)
    : manager_(std::move(config), std::move(options)), features_(std::move(features)) {
  manager_.SetWiring([this](kube::Manager& manager, const kube::ApiDiscovery& discovery) {
    return Wire(manager, discovery);
  });
}

Controller::~Controller() { (void)Stop(); }

kube::Status Controller::Start() {
  RegisterBuildInfo();
  return manager_.Start();
}

kube::Status Controller::Stop() { return manager_.Stop(); }

void Controller::RegisterBuildInfo() {
  auto family = kube::MetricFamilyCache::Gauge(manager_.registry(), "dra_controller_build_info",
                                               "Always 1; labels carry the dra-controller version");
  if (family.ok()) (*family)->Add({{"version", build::kVersion}}).Set(1);
}

metrics::AllocationMetricsFeature::Options Controller::MetricsOptions() const {
  metrics::AllocationMetricsFeature::Options options;
  options.device_attributes = features_.metrics_device_attributes;
  if (health_) {
    health::HealthWiring* health = health_.get();
    options.unhealthy_devices = [health] { return health->UnhealthyDeviceKeys(); };
    options.unhealthy_devices_waits_for = {health->HealthDependency()};
    options.watch_unhealthy_devices = [health](std::shared_ptr<std::atomic<bool>> flag) {
      // UnhealthyDeviceKeys reads the target and the state; not the status
      // the controller itself patches.
      auto matters = [](const api::DeviceHealth& a, const api::DeviceHealth& b) {
        return a.driver != b.driver || a.pool != b.pool || a.device != b.device ||
               a.state != b.state;
      };
      health->AddHealthHandler(
          std::make_shared<metrics::ChangeSignal<api::DeviceHealth>>(std::move(flag), matters));
    };
  }
  return options;
}

kube::Status Controller::Wire(kube::Manager& manager, const kube::ApiDiscovery& discovery) {
  manager.informers().SetWatchListMode(features_.watch_list);  // before any informer exists
  for (const char* resource : kInventoryResources) {
    if (!discovery.Serves(kResourceApi, resource)) {
      spdlog::warn("{} does not serve {}; features using it stay off", kResourceApi, resource);
    }
  }
  inventory_ = std::make_unique<inventory::Inventory>(manager.registry());
  inventory_informers_ = std::make_unique<inventory::InventoryInformers>(
      manager.informers(), *inventory_, discovery.Serves(kResourceApi, "devicetaintrules"));
  health_ =
      health::HealthWiring::Register(manager, *inventory_, *inventory_informers_, features_.health);
  extended_ = extended::ExtendedWiring::Register(manager, *inventory_, *inventory_informers_,
                                                 features_.extended);
  if (manager.serves_metrics()) {
    allocation_metrics_ = metrics::AllocationMetricsFeature::Register(
        manager, *inventory_, *inventory_informers_, MetricsOptions());
  } else {
    // Nothing could scrape them; on a large fleet the rendered text alone is
    // tens of MB (README "Metrics").
    spdlog::info("allocation metrics off: /metrics is not served (--metrics-bind-address=0)");
  }
  manager.AddReadyCheck("inventory", [this] {
    bool synced = inventory_informers_ && inventory_informers_->WaitForSync({});
    return synced ? kube::Status::Ok()
                  : kube::Status(kube::StatusCode::kUnavailable, "device inventory not synced");
  });
  // Once the devices are known; not after Nodes, Pods or DeviceHealths, which
  // a replica missing their read permission never syncs.
  manager.Add(std::make_unique<kube::FunctionRunnable>(
      "inventory-report", false,
      [this] {
        spdlog::info("inventory synced: {} devices in {} pools, {} selector errors",
                     inventory_->device_count(), inventory_->Pools().size(),
                     inventory_->selector_error_total());
        return kube::Status::Ok();
      },
      nullptr, inventory_informers_->DeviceDependencies()));
  return kube::Status::Ok();
}

}  // namespace dra::app
