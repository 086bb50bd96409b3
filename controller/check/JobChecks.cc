#include "controller/check/JobChecks.h"

#include "controller/api/DraReleases.h"
#include "controller/api/TaintRuleApi.h"

namespace dra::check {
namespace {

using api::DraCapability;
using api::DraReleases;

constexpr const char* kDeviceHealth = "job-device-health";
constexpr const char* kExtended = "job-extended-resources";
constexpr const char* kKubelet = "job-kubelet-health-reports";

// The release's minor, or the newest known when /version cannot be read.
int MinorOf(const CheckInputs& in) {
  auto minor = in.version.ok() ? DraReleases::Minor(in.version.value) : std::nullopt;
  return minor.value_or(DraReleases::kNewestMinor);
}

std::string Release(const CheckInputs& in) {
  return in.version.ok() ? in.version.value : "this release";
}

std::string EvictionNote(int minor) {
  if (DraReleases::EvictsExtendedResourcePods(minor)) return "";
  return "; kube-controller-manager 1." + std::to_string(minor) +
         " does not evict extended-resource Pods from a NoExecute device, dra-controller does";
}

}  // namespace

CheckResult JobChecks::DeviceHealth(const CheckInputs& in) {
  int minor = MinorOf(in);
  if (in.taint_rules_api.ok()) {
    std::string detail = "DeviceTaintRules served at " + in.taint_rules_api.value;
    api::CapabilityInRelease needs = DraReleases::In(DraCapability::kDeviceTaintRules, minor);
    if (!needs.on_by_default) {
      detail += "; the feature gate " + needs.gates.back() +
                " must be on in kube-scheduler and kube-controller-manager too (the API server "
                "cannot show theirs)";
    }
    return CheckResult::Pass(kDeviceHealth, detail + EvictionNote(minor));
  }
  if (in.taint_rules_api.not_found) {
    return CheckResult::Warn(kDeviceHealth,
                             api::TaintRuleApi::NotServed(Release(in)) +
                                 "; until then DeviceHealths are reported, not enforced");
  }
  return CheckResult::Warn(
      kDeviceHealth, "cannot tell where DeviceTaintRules are served: " + in.taint_rules_api.error);
}

CheckResult JobChecks::ExtendedResources(const CheckInputs& in) {
  int minor = MinorOf(in);
  std::string how = DraReleases::HowToEnable(DraCapability::kExtendedResources, minor);
  if (in.extended_resources.ok() && in.extended_resources.value) {
    return CheckResult::Pass(kExtended,
                             "DeviceClasses keep spec.extendedResourceName (server-side dry run)");
  }
  if (in.extended_resources.ok()) {
    return CheckResult::Warn(kExtended,
                             "the API server drops spec.extendedResourceName (server-side dry "
                             "run): Pods asking for extended resources get no DRA devices; "
                             "turn on the " +
                                 how);
  }
  std::string why = in.extended_resources.not_found ? "not found" : in.extended_resources.error;
  return CheckResult::Warn(kExtended, "cannot tell (the dry run of a DeviceClass failed: " + why +
                                          "); in " + Release(in) + ": " + how);
}

CheckResult JobChecks::KubeletHealthReports(const CheckInputs& in) {
  int minor = MinorOf(in);
  api::CapabilityInRelease needs = DraReleases::In(DraCapability::kHealthReports, minor);
  std::string how = DraReleases::HowToEnable(DraCapability::kHealthReports, minor);
  std::string detail = "allocatedResourcesStatus in " + Release(in) + ": " + how +
                       " (from the release's defaults: the kubelets' gates cannot be read)";
  return needs.on_by_default ? CheckResult::Pass(kKubelet, detail)
                             : CheckResult::Warn(kKubelet, detail);
}

}  // namespace dra::check
