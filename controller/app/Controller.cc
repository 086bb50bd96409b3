#include "controller/app/Controller.h"

#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include "controller/BuildInfo.h"
#include "controller/api/TaintRuleApi.h"
#include "src/manager/FunctionRunnable.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::app {
namespace {

constexpr const char* kResourceApi = "resource.k8s.io/v1";
const char* const kInventoryResources[] = {"deviceclasses", "resourceslices", "resourceclaims"};

}  // namespace

kube::ManagerOptions Controller::DefaultOptions() {
  kube::ManagerOptions options;
  options.leader_election_id = "dra-controller";
  options.discover = api::TaintRuleApi::GroupVersions();  // resource.k8s.io/v1 first
  options.required = {kResourceApi};
  options.user_agent = std::string("dra-controller/") + build::kVersion;
  return options;
}

Controller::Controller(kube::RestConfig config, kube::ManagerOptions options, FeatureList features,
                       kube::WatchListMode watch_list)
    : manager_(std::move(config), std::move(options)),
      states_(manager_.registry()),
      features_(std::move(features)),
      watch_list_(watch_list) {
  manager_.SetWiring([this](kube::Manager& manager, const kube::ApiDiscovery& discovery) {
    return Wire(manager, discovery);
  });
}

Controller::~Controller() { (void)Stop(); }

kube::Status Controller::Start() {
  RegisterBuildInfo(manager_.registry());
  return manager_.Start();
}

kube::Status Controller::Stop() { return manager_.Stop(); }

void Controller::RegisterBuildInfo(const std::shared_ptr<prometheus::Registry>& registry) {
  auto family = kube::MetricFamilyCache::Gauge(registry, "dra_controller_build_info",
                                               "Always 1; labels carry the dra-controller version",
                                               {"version"});
  if (family.ok()) (*family)->Add({{"version", build::kVersion}}).Set(1);
}

kube::Status Controller::Wire(kube::Manager& manager, const kube::ApiDiscovery& discovery) {
  manager.informers().SetWatchListMode(watch_list_);  // before any informer exists
  for (const char* resource : kInventoryResources) {
    if (!discovery.Serves(kResourceApi, resource)) {
      spdlog::warn("{} does not serve {}; features using it stay off", kResourceApi, resource);
    }
  }
  auto taint_rules = api::TaintRuleApi::From(discovery);
  if (taint_rules.has_value()) {
    spdlog::info("DeviceTaintRules are served at {}", taint_rules->ApiVersion());
  } else {
    spdlog::warn("{}", api::TaintRuleApi::NotServed(discovery.server_version()));
  }
  inventory_ = std::make_unique<inventory::Inventory>(manager.registry());
  inventory_informers_ = std::make_unique<inventory::InventoryInformers>(manager.informers(),
                                                                         *inventory_, taint_rules);
  KUBE_RETURN_IF_ERROR(WireFeatures(manager, discovery));
  AddInventoryChecks(manager);
  return kube::Status::Ok();
}

kube::Status Controller::WireFeatures(kube::Manager& manager, const kube::ApiDiscovery& discovery) {
  feature::FeatureContext context{manager, discovery, *inventory_, *inventory_informers_,
                                  states_, {}};
  for (const auto& name : not_selected_) states_.Off(name, "NotSelected");
  for (const auto& feature : features_) {
    if (kube::Status wired = feature->Wire(context); !wired.ok()) {
      return wired.WithContext("feature " + std::string(feature->Name()));
    }
    std::string name(feature->Name());
    if (!states_.Get(name).has_value()) states_.On(name, "Wired");
  }
  return kube::Status::Ok();
}

void Controller::AddInventoryChecks(kube::Manager& manager) {
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
}

}  // namespace dra::app
