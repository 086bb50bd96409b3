#include "controller/kubelet/KubeletFeature.h"

#include <spdlog/spdlog.h>

#include "controller/api/DeviceHealth.h"
#include "controller/extended/PodInformer.h"
#include "controller/health/DeviceHealthApi.h"
#include "controller/health/RestHealthWriter.h"
#include "controller/health/RestSourcedHealthWriter.h"
#include "controller/health/RuleFirstWriter.h"

namespace dra::kubelet {
namespace {

constexpr const char* kFlag = "kubelet-health-reports";

}  // namespace

void KubeletFeature::DeclareFlags(kube::FlagSet& flags) {
  flags.Bool(kFlag, true,
             "Device health: turn the kubelet's device health reports (Pod status "
             "allocatedResourcesStatus) into DeviceHealths labelled "
             "dra-controller.dev/source=kubelet");
}

kube::Status KubeletFeature::ParseFlags(const kube::FlagSet& flags) {
  enabled_ = flags.GetBool(kFlag);
  return kube::Status::Ok();
}

kube::Status KubeletFeature::Wire(feature::FeatureContext& context) {
  if (!enabled_) {
    spdlog::info("kubelet health reports off (--{}=false)", kFlag);
    context.states.Off(std::string(Name()), "TurnedOff");
    return kube::Status::Ok();
  }
  if (kube::Status served = health::DeviceHealthApi::Served(*context.manager.client());
      !served.ok()) {
    spdlog::warn("kubelet health reports off: {}", served.message());
    context.states.Off(std::string(Name()), "DeviceHealthNotServed");
    return kube::Status::Ok();
  }
  kube::Manager& manager = context.manager;
  auto& pods = extended::PodInformer::Get(manager.informers());
  auto& healths = manager.informers().Get<api::DeviceHealth>(
      api::DeviceHealth::kResource,
      [](simdjson::dom::element e) { return api::DeviceHealth::FromJson(e); });
  KubeletHealthSource::Inputs inputs;
  inputs.pods = [&pods] { return pods.store().List(); };
  inputs.health = [&healths](const std::string& name) { return healths.store().Get(name); };
  inputs.remove = [client = manager.client()](const api::DeviceHealth& h) {
    kube::DeleteOptions options;
    options.precondition_uid = h.meta.uid.str();
    options.precondition_resource_version = h.meta.resource_version.str();
    kube::Status deleted =
        client->DeleteIfExists(api::DeviceHealth::kResource.ItemPath("", h.meta.name), options);
    // A newer version (a Pod reported again) is reconciled on its own event.
    if (deleted.code() == kube::StatusCode::kConflict) return kube::Status::Ok();
    return deleted;
  };
  inputs.verify = [verifier = ReportVerifier(context.inventory)](
                      const api::PodView& pod, const inventory::DeviceKey& device) {
    return verifier.Check(pod, device);
  };
  inputs.claim = [&inventory = context.inventory](std::string_view ns, std::string_view name) {
    return inventory.Claim(ns, name);
  };
  // Reports name driver, pool and device: no attribute names are looked up.
  auto writer = health::RuleFirstWriter::ForSources(
      context, std::make_shared<health::RestSourcedHealthWriter>(manager.client()), {});
  source_ = std::make_shared<KubeletHealthSource>(
      std::move(inputs), std::move(writer),
      std::make_shared<KubeletHealthMetrics>(manager.registry()));
  // Reports are checked against the claims and slices: they must be known first.
  auto controller = manager.AddController(
      {"kubelet-health", 1, true, context.informers.DeviceDependencies()}, source_);
  if (!controller.ok()) return controller.status().WithContext("kubelet health controller");
  (*controller)->Watch(pods, [source = source_](const api::PodView& pod) {
    return source->KeysOfPod(pod);
  });
  (*controller)->Watch(healths, [source = source_](const api::DeviceHealth& health) {
    return source->KeysOfHealth(health);
  });
  spdlog::info("kubelet health reports on: Pod device reports become DeviceHealths");
  return kube::Status::Ok();
}

}  // namespace dra::kubelet
