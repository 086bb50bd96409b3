#include "controller/health/HealthWiring.h"

#include <spdlog/spdlog.h>

#include "controller/api/DeviceHealth.h"
#include "controller/health/DeviceHealthApi.h"
#include "controller/health/HealthKeys.h"
#include "controller/health/RestHealthWriter.h"
#include "controller/health/TaintRuleBuilder.h"
#include "controller/health/TargetResolver.h"

namespace dra::health {
namespace {

bool Served(kube::Manager& manager) {
  kube::Status served = DeviceHealthApi::Served(*manager.client());
  if (!served.ok()) spdlog::warn("device health off: {}", served.message());
  return served.ok();
}

}  // namespace

kube::Result<std::unique_ptr<HealthWiring>> HealthWiring::Register(
    kube::Manager& manager, inventory::Inventory& inventory,
    inventory::InventoryInformers& informers, const HealthOptions& options) {
  if (!Served(manager)) return std::unique_ptr<HealthWiring>();

  std::unique_ptr<HealthWiring> wiring(new HealthWiring());
  wiring->inventory_ = &inventory;
  wiring->attribute_names_ = options.attribute_names;
  wiring->healths_ = &manager.informers().Get<api::DeviceHealth>(
      api::DeviceHealth::kResource,
      [](simdjson::dom::element e) { return api::DeviceHealth::FromJson(e); });
  auto recorder = manager.Recorder("dra-controller");
  HealthSources sources{&wiring->healths_->store(),
                        informers.rules() ? &informers.rules()->store() : nullptr, &inventory};
  auto rule_resource = informers.taint_rule_resource().value_or(api::DeviceTaintRule::kResource);
  wiring->reconciler_ = std::make_shared<DeviceHealthReconciler>(
      sources, std::make_shared<RestHealthWriter>(manager.client(), rule_resource),
      [recorder](const kube::ObjectReference& object, const std::string& type,
                 const std::string& reason,
                 const std::string& message) { recorder->Event(object, type, reason, message); },
      manager.clock(), options, std::make_shared<HealthMetrics>(manager.registry()));
  // Not Pods or Nodes: a replica that may not read them still heals devices.
  auto waits_for = informers.DeviceDependencies();
  waits_for.push_back(wiring->HealthDependency());
  auto controller = manager.AddController({"devicehealth", options.workers, true, waits_for},
                                          wiring->reconciler_);
  if (!controller.ok()) return controller.status().WithContext("device health controller");
  wiring->Watch(**controller, informers);
  spdlog::info("device health on: preview {}s, hold-off {}s, storm guard {:.0f}%, rules at {}{}",
               options.preview.count(), options.hold_off.count(), options.storm_share * 100,
               informers.rules() ? rule_resource.ApiVersion() : "none",
               options.dry_run ? ", dry-run" : "");
  return wiring;
}

void HealthWiring::Watch(kube::ManagedController& controller,
                         inventory::InventoryInformers& informers) {
  auto reconciler = reconciler_;
  const auto* store = &healths_->store();
  controller.Watch<api::DeviceHealth>(*healths_, [reconciler](const api::DeviceHealth& h) {
    reconciler->NoteChange(h.meta.name);
    auto keys = reconciler->HeldKeys();
    keys.push_back(h.meta.name);
    return keys;
  });
  // A rule that changes or goes may free room for the DeviceHealths the storm
  // guard holds back. (No rules where the cluster serves none: reported only.)
  if (informers.rules() != nullptr) {
    controller.Watch<api::DeviceTaintRule>(*informers.rules(),
                                           [reconciler](const api::DeviceTaintRule& r) {
                                             auto keys = reconciler->HeldKeys();
                                             std::string owner = TaintRuleBuilder::OwnerOf(r);
                                             if (!owner.empty()) keys.push_back(owner);
                                             return keys;
                                           });
  }
  // Slices and claims are mapped once the Inventory has them: a reconcile
  // queued by a handler of their own could run before the Inventory's feed
  // and resolve the target (or gather its Pods) from the old state, and
  // nothing would queue it again. Old and new object of an update are both
  // mapped (a slice that moved pools; a claim's deallocation).
  kube::WorkQueue* queue = &controller.queue();
  auto enqueue = [queue](const std::vector<std::string>& keys) {
    for (const auto& key : keys) queue->Add(key);
  };
  informers.AfterSliceChange(
      [store, enqueue](const api::ResourceSlice& s) { enqueue(HealthKeys::ForSlice(*store, s)); });
  informers.AfterClaimChange(
      [store, enqueue](const api::ResourceClaim& c) { enqueue(HealthKeys::ForClaim(*store, c)); });
}

kube::InformerDependency HealthWiring::HealthDependency() const {
  return kube::InformerDependency::On(*healths_);
}

void HealthWiring::AddHealthHandler(
    std::shared_ptr<kube::EventHandler<api::DeviceHealth>> handler) {
  healths_->AddHandler(std::move(handler));
}

std::vector<std::string> HealthWiring::UnhealthyDeviceKeys() const {
  std::vector<std::string> keys;
  std::vector<std::pair<std::string, std::string>> whole_pools;  // driver, pool
  TargetResolver resolver(DeviceLocator(*inventory_, attribute_names_));
  for (const auto& spec : healths_->store().List()) {
    if (spec->state != api::HealthState::kUnhealthy) continue;
    auto resolution = resolver.Resolve(*spec);
    if (!resolution.resolved()) continue;
    api::DeviceHealth resolved = TargetResolver::Effective(*spec, resolution, nullptr);
    const api::DeviceHealth* health = &resolved;
    if (!health->device.empty()) {
      keys.push_back(inventory::DeviceKey{health->driver, health->pool, health->device}.ToString());
    } else {
      whole_pools.emplace_back(health->driver, health->pool);
    }
  }
  if (whole_pools.empty()) return keys;
  inventory_->VisitDevices([&](const inventory::DeviceVisit& d) {
    for (const auto& [driver, pool] : whole_pools) {
      if (d.slice.driver == driver && d.slice.pool.name == pool) {
        keys.push_back(inventory::DeviceKey{driver, pool, d.device.name.str()}.ToString());
      }
    }
  });
  return keys;
}

}  // namespace dra::health
