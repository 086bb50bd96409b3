#include "controller/health/ExtendedResourceEvictions.h"

#include <spdlog/spdlog.h>

#include "controller/api/DraReleases.h"
#include "controller/health/ExtendedResourcePodEvictor.h"
#include "controller/health/RestPodEvictor.h"

namespace dra::health {
namespace {

using Mode = HealthOptions::SelfEviction;

void EnqueueGoverned(kube::WorkQueue& queue, const kube::StoreReader<api::DeviceTaintRule>& rules) {
  for (const auto& rule : rules.List()) {
    if (ExtendedResourcePodEvictor::Governs(*rule)) queue.Add(rule->meta.name);
  }
}

}  // namespace

ExtendedResourceEvictions::Decision ExtendedResourceEvictions::Decide(
    Mode mode, std::string_view server_version) {
  const std::string flag = "--health-extended-resource-evictions";
  if (mode == Mode::kOff) {
    return {
        false,
        "extended-resource Pods on NoExecute devices are left to the cluster (" + flag + "=off)",
        "TurnedOff"};
  }
  if (mode == Mode::kOn) {
    return {
        true,
        "dra-controller evicts extended-resource Pods on its NoExecute devices (" + flag + "=on)",
        "TurnedOn"};
  }
  auto minor = api::DraReleases::Minor(server_version);
  if (!minor.has_value()) {
    return {false,
            "extended-resource Pods on NoExecute devices are left to the cluster: version " +
                std::string(server_version) + " not understood (" + flag + "=on to evict)",
            "VersionUnknown"};
  }
  if (api::DraReleases::EvictsExtendedResourcePods(*minor)) {
    return {false,
            "extended-resource Pods on NoExecute devices are evicted by the cluster's "
            "device-taint eviction controller (" +
                std::string(server_version) + "); dra-controller evicts none",
            "ClusterEvicts"};
  }
  return {true,
          "dra-controller evicts extended-resource Pods on its NoExecute devices: the "
          "device-taint eviction controller of " +
              std::string(server_version) + " leaves them running",
          "ClusterDoesNotEvict"};
}

kube::Status ExtendedResourceEvictions::Wire(feature::FeatureContext& context,
                                             const HealthOptions& options) {
  auto* rules = context.informers.rules();
  if (rules == nullptr || options.dry_run) return kube::Status::Ok();  // no rule of ours to act on
  Decision decision =
      Decide(options.extended_resource_evictions, context.discovery.server_version());
  spdlog::info("{}", decision.why);
  if (!decision.evict) {
    context.states.Off(std::string(kFeature), decision.reason);
    return kube::Status::Ok();
  }
  context.states.On(std::string(kFeature), decision.reason);
  kube::Manager& manager = context.manager;
  auto recorder = manager.Recorder("dra-controller");
  auto evictor = std::make_shared<ExtendedResourcePodEvictor>(
      rules->store(), context.inventory, std::make_shared<RestPodEvictor>(manager.client()),
      [recorder](const kube::ObjectReference& object, const std::string& type,
                 const std::string& reason,
                 const std::string& message) { recorder->Event(object, type, reason, message); },
      manager.clock(),
      ExtendedResourcePodEvictor::Rate{options.evictions_per_second, options.eviction_burst},
      manager.registry());
  auto controller = manager.AddController(
      {"extended-resource-evictions", 1, true, context.informers.DeviceDependencies()}, evictor);
  if (!controller.ok()) return controller.status().WithContext("extended-resource evictions");
  (*controller)->Watch<api::DeviceTaintRule>(*rules, [](const api::DeviceTaintRule& r) {
    return std::vector<std::string>{r.meta.name};
  });
  kube::WorkQueue* queue = &(*controller)->queue();
  const auto* store = &rules->store();
  // A Pod may take a tainted device's claim after the rule went NoExecute.
  context.informers.AfterClaimChange([queue, store](const api::ResourceClaim& claim) {
    if (claim.extended_resource_claim) EnqueueGoverned(*queue, *store);
  });
  return kube::Status::Ok();
}

}  // namespace dra::health
