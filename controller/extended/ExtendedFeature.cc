#include "controller/extended/ExtendedFeature.h"

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
  return kube::Status::Ok();
}

}  // namespace dra::extended
