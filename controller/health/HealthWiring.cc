#include "controller/health/HealthWiring.h"

#include <spdlog/spdlog.h>

#include "controller/api/DeviceHealth.h"
#include "controller/health/DeviceHealthApi.h"
#include "controller/health/DeviceScope.h"
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

// The target as status.resolved last named it, for a target by uuid or
// node + index; the health itself otherwise.
api::DeviceHealth ResolvedTarget(const api::DeviceHealth& health) {
  api::DeviceHealth target = health;
  if (health.NamesPool()) return target;
  auto key = inventory::DeviceKey::Parse(health.status.resolved);
  if (key.ok()) {
    target.driver = key->driver;
    target.pool = key->pool;
    target.device = key->device;
  }
  return target;
}

}  // namespace

kube::Result<std::unique_ptr<HealthWiring>> HealthWiring::Register(
    kube::Manager& manager, inventory::Inventory& inventory,
    inventory::InventoryInformers& informers, const HealthOptions& options) {
  if (informers.rules() == nullptr) {
    spdlog::warn("device health off: resource.k8s.io/v1 does not serve devicetaintrules");
    return std::unique_ptr<HealthWiring>();
  }
  if (!Served(manager)) return std::unique_ptr<HealthWiring>();
  std::unique_ptr<HealthWiring> wiring(new HealthWiring());
  wiring->inventory_ = &inventory;
  wiring->attribute_names_ = options.attribute_names;
  wiring->healths_ = &manager.informers().Get<api::DeviceHealth>(
      api::DeviceHealth::kResource,
      [](simdjson::dom::element e) { return api::DeviceHealth::FromJson(e); });
  auto recorder = manager.Recorder("dra-controller");
  HealthSources sources{&wiring->healths_->store(), &informers.rules()->store(), &inventory};
  wiring->reconciler_ = std::make_shared<DeviceHealthReconciler>(
      sources, std::make_shared<RestHealthWriter>(manager.client()),
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
  spdlog::info("device health on: preview {}s, hold-off {}s, storm guard {:.0f}%{}",
               options.preview.count(), options.hold_off.count(), options.storm_share * 100,
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
  controller.Watch<api::DeviceTaintRule>(*informers.rules(), [](const api::DeviceTaintRule& r) {
    std::string owner = TaintRuleBuilder::OwnerOf(r);
    return owner.empty() ? std::vector<std::string>{} : std::vector<std::string>{owner};
  });
  // A target by uuid or node + index may move to any slice (a driver
  // restart that renames pools): every slice change looks it up again.
  controller.Watch<api::ResourceSlice>(informers.slices(), [store](const api::ResourceSlice& s) {
    std::vector<std::string> keys;
    for (const auto& h : store->List()) {
      bool named = h->driver == s.driver && h->pool == s.pool.name;
      bool looked_up = !h->NamesPool() && (h->driver.empty() || h->driver == s.driver);
      if (named || looked_up) keys.push_back(h->meta.name);
    }
    return keys;
  });
  // A claim matters to the tainted DeviceHealths naming a device it holds
  // (their affected Pods); old and new object are both mapped, so a
  // deallocation reaches them too. Other claims would only flood the queue.
  controller.Watch<api::ResourceClaim>(informers.claims(), [store](const api::ResourceClaim& c) {
    std::vector<std::string> keys;
    if (c.results.empty()) return keys;
    for (const auto& h : store->List()) {
      if (!h->status.effect.empty() && DeviceScope::NamesAnyOf(ResolvedTarget(*h), c.results))
        keys.push_back(h->meta.name);
    }
    return keys;
  });
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
