#include "controller/health/HealthFeature.h"

#include <spdlog/spdlog.h>

#include "controller/api/DraReleases.h"
#include "controller/api/TaintRuleApi.h"
#include "controller/health/ExtendedResourceEvictions.h"
#include "controller/health/HealthFlags.h"
#include "src/cache/ChangeSignal.h"

namespace dra::health {

void HealthFeature::DeclareFlags(kube::FlagSet& flags) { HealthFlags::Declare(flags); }

kube::Status HealthFeature::ParseFlags(const kube::FlagSet& flags) {
  KUBE_ASSIGN_OR_RETURN(options_, HealthFlags::Parse(flags));
  return kube::Status::Ok();
}

kube::Status HealthFeature::Wire(feature::FeatureContext& context) {
  HealthOptions options = options_;
  auto minor = api::DraReleases::Minor(context.discovery.server_version());
  options.none_effect_served =
      api::DraReleases::TaintEffectNoneServed(minor.value_or(api::DraReleases::kNewestMinor));
  if (context.informers.rules() == nullptr) {
    // Still read and report: status, Events and metrics say what would be done.
    options.dry_run = true;
    options.dry_run_reason = "TaintRulesNotServed";
    options.dry_run_message = api::TaintRuleApi::NotServed(context.discovery.server_version());
    spdlog::warn("device health writes no DeviceTaintRule: {}", options.dry_run_message);
  }
  KUBE_ASSIGN_OR_RETURN(wiring_, HealthWiring::Register(context.manager, context.inventory,
                                                        context.informers, options));
  ReportState(context.states, options);
  if (!wiring_) return kube::Status::Ok();
  PublishUnhealthyDevices(context);
  context.health_writes_rules = !options.dry_run;
  return ExtendedResourceEvictions::Wire(context, options);
}

void HealthFeature::ReportState(feature::FeatureStates& states, const HealthOptions& options) {
  std::string name(Name());
  if (!wiring_) {
    states.Off(name, "DeviceHealthNotServed");
  } else if (options.dry_run) {
    states.Off(name, options.dry_run_reason);
  } else {
    states.On(name, "Enforced");
  }
  // Set again by the evictions when they are wired.
  states.Off(std::string(ExtendedResourceEvictions::kFeature), "HealthNotEnforced");
}

void HealthFeature::PublishUnhealthyDevices(feature::FeatureContext& context) {
  HealthWiring* wiring = wiring_.get();
  context.unhealthy_devices.keys = [wiring] { return wiring->UnhealthyDeviceKeys(); };
  context.unhealthy_devices.waits_for = {wiring->HealthDependency()};
  context.unhealthy_devices.watch = [wiring](std::shared_ptr<std::atomic<bool>> flag) {
    // UnhealthyDeviceKeys reads the target and the state; not the status the
    // controller itself patches.
    auto matters = [](const api::DeviceHealth& a, const api::DeviceHealth& b) {
      return a.driver != b.driver || a.pool != b.pool || a.device != b.device || a.uuid != b.uuid ||
             a.node != b.node || a.index != b.index || a.state != b.state;
    };
    wiring->AddHealthHandler(
        std::make_shared<kube::ChangeSignal<api::DeviceHealth>>(std::move(flag), matters));
  };
}

}  // namespace dra::health
