#include "controller/check/ControllerChecks.h"

#include <algorithm>

namespace dra::check {

CheckResult ControllerChecks::Deployment(const CheckInputs& in) {
  constexpr const char* kName = "controller-deployment";
  std::string where = in.namespace_name + "/dra-controller";
  if (in.deployment.not_found) {
    return CheckResult::Warn(kName, "Deployment " + where + " not found (not installed?)");
  }
  if (!in.deployment.ok()) {
    return CheckResult::Fail(kName, "cannot read Deployment " + where + ": " + in.deployment.error);
  }
  const auto& d = in.deployment.value;
  std::string counts =
      std::to_string(d.ready_replicas) + "/" + std::to_string(d.replicas) + " ready";
  if (d.ready_replicas < 1) return CheckResult::Fail(kName, where + ": " + counts);
  return CheckResult::Pass(kName, where + ": " + counts);
}

CheckResult ControllerChecks::Lease(const CheckInputs& in) {
  constexpr const char* kName = "leader-lease";
  std::string where = in.namespace_name + "/" + in.lease_name;
  if (in.lease.not_found) {
    if (in.deployment.not_found) return CheckResult::Warn(kName, "Lease " + where + " not found");
    return CheckResult::Fail(kName, "Lease " + where + " not found: no replica ever led");
  }
  if (!in.lease.ok())
    return CheckResult::Fail(kName, "cannot read Lease " + where + ": " + in.lease.error);
  const auto& l = in.lease.value;
  if (l.holder.empty()) {
    // Released by a replica that stopped cleanly: nobody leads now.
    std::string detail = "Lease " + where + " released: no replica leads";
    return in.deployment.not_found ? CheckResult::Warn(kName, detail)
                                   : CheckResult::Fail(kName, detail);
  }
  int64_t age = in.now - l.renew_time;
  std::string detail = "held by " + l.holder + ", renewed " + std::to_string(age) +
                       "s ago (duration " + std::to_string(l.duration_seconds) + "s)";
  if (l.renew_time == 0 || age > l.duration_seconds) {
    // Without a Deployment the Lease is a local run's: worth a look, not a failure.
    return in.deployment.not_found ? CheckResult::Warn(kName, "stale: " + detail)
                                   : CheckResult::Fail(kName, "stale: " + detail);
  }
  return CheckResult::Pass(kName, detail);
}

std::string ControllerChecks::Denied(const std::vector<AccessCheck>& checks) {
  std::string denied;
  for (const auto& a : checks) {
    if (a.allowed) continue;
    std::string what = a.verb + " " + a.resource +
                       (a.subresource.empty() ? "" : "/" + a.subresource) +
                       (a.namespace_name.empty() ? "" : " in " + a.namespace_name) +
                       (a.error.empty() ? "" : " (review failed: " + a.error + ")") +
                       (a.feature.empty() ? "" : " (" + a.feature + ")");
    denied += (denied.empty() ? "" : ", ") + what;
  }
  return denied;
}

CheckResult ControllerChecks::SourcePolicy(const CheckInputs& in) {
  constexpr const char* kName = "health-source-policy";
  const std::string policy = std::string("ValidatingAdmissionPolicy ") + kSourcePolicyName;
  bool health_off = !in.controller_user.empty() && in.controller_needs_error.empty() &&
                    std::none_of(in.controller_access.begin(), in.controller_access.end(),
                                 [](const AccessCheck& a) { return a.feature == "device-health"; });
  if (health_off && !in.source_policy.ok()) {
    return CheckResult::Pass(
        kName, "device health is off in the Deployment's args: no " + policy + " needed");
  }
  if (in.source_policy.ok()) {
    return CheckResult::Pass(kName, policy +
                                        " and its binding reserve the monitoring sources' "
                                        "DeviceHealth names (kubelet-*, alert-*) and label");
  }
  std::string risk =
      ": whoever may create DeviceHealths can take a monitoring source's name or label and "
      "silence that source for a GPU; apply "
      "manifests/features/device-health/devicehealth-source-policy.yaml";
  if (in.source_policy.not_found)
    return CheckResult::Warn(kName, policy + " or its binding not found" + risk);
  return CheckResult::Warn(kName, "cannot read " + policy + ": " + in.source_policy.error + risk);
}

CheckResult ControllerChecks::Access(const CheckInputs& in) {
  constexpr const char* kName = "caller-rbac";
  std::string denied = Denied(in.access);
  if (!denied.empty()) return CheckResult::Fail(kName, "missing: " + denied);
  return CheckResult::Pass(kName, std::to_string(in.access.size()) + " permissions allowed");
}

CheckResult ControllerChecks::ControllerAccess(const CheckInputs& in) {
  constexpr const char* kName = "controller-rbac";
  if (in.controller_user.empty()) {
    return CheckResult::Warn(kName, "skipped: no Deployment to take the service account from");
  }
  if (!in.controller_needs_error.empty()) {
    return CheckResult::Fail(
        kName, "cannot tell what the Deployment's args turn on: " + in.controller_needs_error);
  }
  std::string denied = Denied(in.controller_access);
  if (!denied.empty()) return CheckResult::Fail(kName, in.controller_user + " missing: " + denied);
  return CheckResult::Pass(kName, in.controller_user + ": " +
                                      std::to_string(in.controller_access.size()) +
                                      " permissions allowed");
}

}  // namespace dra::check
