#include "controller/extended/ExtendedWiring.h"

#include <chrono>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/extended/PodInformer.h"
#include "controller/extended/SentPodEvents.h"
#include "controller/inventory/InventoryInformers.h"

namespace dra::extended {
namespace {

template <typename T>
std::vector<std::string> MappingKey(const T&) {
  return {MappingReconciler::kKey};
}

// A Pod the scheduler refused for lack of a resource may show the order hazard.
std::vector<std::string> HazardShownByPod(const api::PodView& pod) {
  if (!MappingReconciler::MayShowHazard(pod)) return {};
  return {MappingReconciler::kKey};
}

// A Pod's implicit claim, so that the Pod's deletion or end re-audits it.
std::vector<std::string> ClaimOfPod(const api::PodView& pod) {
  if (!pod.extended_resource_claim_status) return {};
  return {pod.meta.namespace_name + "/" + pod.extended_resource_claim_status->resource_claim_name};
}

}  // namespace

kube::Status ExtendedWiring::Touch(kube::RestClient& client, const std::string& class_name) {
  auto now = std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  nlohmann::json patch = {
      {"metadata",
       {{"annotations", {{api::DeviceClass::kRefreshAnnotation, std::to_string(now)}}}}}};
  auto path = api::DeviceClass::kResource.ItemPath("", class_name);
  auto result = client.Patch(path, kube::PatchType::kMerge, patch.dump());
  return result.ok() ? kube::Status::Ok() : result.status();
}

kube::Result<std::unique_ptr<ExtendedWiring>> ExtendedWiring::Register(
    kube::Manager& manager, const inventory::Inventory& inventory,
    inventory::InventoryInformers& informers, const ExtendedOptions& options) {
  std::unique_ptr<ExtendedWiring> wiring(new ExtendedWiring());
  auto& registry = manager.informers();
  auto& classes =
      registry.Get<api::DeviceClass>(api::DeviceClass::kResource, api::DeviceClass::FromJson);
  auto& slices =
      registry.Get<api::ResourceSlice>(api::ResourceSlice::kResource, api::ResourceSlice::FromJson);
  auto& nodes = registry.Get<api::NodeView>(api::NodeView::kResource, api::NodeView::Decoder());
  auto& pods = PodInformer::Get(registry);
  auto& claims = registry.Get<api::ResourceClaim>(api::ResourceClaim::kResource,
                                                  api::ResourceClaim::Decoder());
  // What the reconcilers read besides the informers they watch: the device
  // inventory, placed on nodes by their labels, and the stores below. Not
  // DeviceHealths: these features run on a replica that may not read them.
  auto by_node = informers.DeviceDependencies();
  by_node.push_back(kube::InformerDependency::On(nodes));
  auto with_pods = by_node;
  with_pods.push_back(kube::InformerDependency::On(pods));

  auto recorder = manager.Recorder("dra-controller");
  FindingReporter::EventFn event = [recorder](const kube::ObjectReference& object,
                                              const std::string& type, const std::string& reason,
                                              const std::string& message) {
    recorder->Event(object, type, reason, message);
  };
  wiring->reporter_ = std::make_unique<FindingReporter>(event, manager.registry());
  MappingReconciler::RepairFn repair;
  if (options.repair_mapping) {
    const auto& client = manager.client();
    ExtendedWiring* self = wiring.get();
    repair = [self, client](const std::string& name) { return self->Touch(*client, name); };
  }
  wiring->mapping_ = std::make_shared<MappingReconciler>(
      MappingReconciler::Stores{classes.store(), nodes.store(), &pods.store()}, inventory,
      *wiring->reporter_, repair, event, manager.clock());
  auto controller =
      manager.AddController({"extended-resource-mapping", 1, true, with_pods}, wiring->mapping_);
  if (!controller.ok()) return controller.status().WithContext("extended-resource mapping");
  (*controller)->Watch(classes, MappingKey<api::DeviceClass>);
  (*controller)->Watch(nodes, MappingKey<api::NodeView>);
  (*controller)->Watch(slices, MappingKey<api::ResourceSlice>);
  (*controller)->Watch(pods, HazardShownByPod);

  MappingReconciler* mapping = wiring->mapping_.get();
  wiring->pods_ = std::make_shared<PodEventReconciler>(
      PodEventReconciler::Stores{pods.store(), classes.store(), nodes.store(), claims.store()},
      inventory, event, manager.clock(), PodEventReconciler::Options{},
      [mapping] { return mapping->findings(); },
      [client = manager.client()](const std::string& reason) {
        return SentPodEvents::List(*client, reason, "dra-controller");
      });
  auto pod_controller =
      manager.AddController({"extended-resource-pods", 2, true, with_pods}, wiring->pods_);
  if (!pod_controller.ok()) {
    return pod_controller.status().WithContext("extended-resource Pod events");
  }
  (*pod_controller)->Watch(pods, kube::ManagedController::OwnKey<api::PodView>);

  LeakReconciler::RemoveFn remove;
  if (options.delete_leaked_claims) {
    auto remover = std::make_shared<LeakedClaimRemover>(manager.client());
    remove = [remover](const api::ResourceClaim& claim) { return remover->Remove(claim); };
  }
  wiring->leaks_ =
      std::make_shared<LeakReconciler>(claims.store(), pods.store(), event, manager.clock(),
                                       options.leak_grace_period, manager.registry(), remove);
  // The leak audit reads only the claims and Pods it watches.
  auto leak_controller = manager.AddController(
      {"extended-resource-leaks", 1, true, std::vector<kube::InformerDependency>{}},
      wiring->leaks_);
  if (!leak_controller.ok()) return leak_controller.status().WithContext("leak audit");
  (*leak_controller)->Watch(claims, kube::ManagedController::OwnKey<api::ResourceClaim>);
  (*leak_controller)->Watch(pods, ClaimOfPod);
  return wiring;
}

}  // namespace dra::extended
