#include "controller/extended/ExtendedFeature.h"

#include <spdlog/spdlog.h>

#include "controller/api/DraReleases.h"
#include "src/base/Duration.h"

namespace dra::extended {

void ExtendedFeature::DeclareFlags(kube::FlagSet& flags) {
  flags.Bool("repair-extended-resource-mapping", false,
             "Touch the DeviceClass serving an extended resource whose mapping kube-scheduler "
             "v1.37.2 lost (the order hazard), at most every 30 s, so it maps the name again");
  flags.String("extended-resource-leak-grace-period", "5m",
               "How long an implicit claim may stay allocated after its Pod is gone or done "
               "before it is reported as leaked");
  flags.Bool("delete-leaked-claims", false,
             "Delete reported leaked implicit claims (with UID and resourceVersion "
             "preconditions) and release their devices, when kube-controller-manager does not");
}

kube::Status ExtendedFeature::ParseFlags(const kube::FlagSet& flags) {
  options_.repair_mapping = flags.GetBool("repair-extended-resource-mapping");
  auto grace = kube::ParseDuration(flags.Get("extended-resource-leak-grace-period"));
  if (!grace.ok() || grace->count() <= 0) {
    return kube::Status(
        kube::StatusCode::kInvalidArgument,
        "--extended-resource-leak-grace-period must be a positive duration such as 5m");
  }
  options_.leak_grace_period = std::chrono::duration_cast<std::chrono::seconds>(*grace);
  options_.delete_leaked_claims = flags.GetBool("delete-leaked-claims");
  return kube::Status::Ok();
}

kube::Status ExtendedFeature::Wire(feature::FeatureContext& context) {
  KUBE_ASSIGN_OR_RETURN(wiring_, ExtendedWiring::Register(context.manager, context.inventory,
                                                          context.informers, options_));
  ReportReleaseDefault(context);
  return kube::Status::Ok();
}

// `run` may not create DeviceClasses, so it cannot dry-run one as `check`
// does: it reads the release's default and says what to verify.
void ExtendedFeature::ReportReleaseDefault(feature::FeatureContext& context) const {
  const std::string& version = context.discovery.server_version();
  int minor = api::DraReleases::Minor(version).value_or(api::DraReleases::kNewestMinor);
  auto capability = api::DraCapability::kExtendedResources;
  if (api::DraReleases::In(capability, minor).on_by_default) return;
  spdlog::warn(
      "extended resources: {} keeps DeviceClass spec.extendedResourceName only with the {}; "
      "until then no DeviceClass maps an extended resource (dra-controller check verifies it)",
      version, api::DraReleases::HowToEnable(capability, minor));
  context.states.On(std::string(Name()), "GateOffByDefault");
}

}  // namespace dra::extended
