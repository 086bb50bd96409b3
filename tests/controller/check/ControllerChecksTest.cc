#include <gtest/gtest.h>

#include "controller/check/ControllerChecks.h"

namespace dra::check {
namespace {

using Outcome = CheckResult::Outcome;

DeploymentInfo Replicas(int64_t replicas, int64_t ready) {
  DeploymentInfo d;
  d.replicas = replicas;
  d.ready_replicas = ready;
  return d;
}

TEST(ControllerChecksTest, DeploymentAbsentWarnsNotReadyFails) {
  CheckInputs in;
  in.deployment.not_found = true;
  EXPECT_EQ(ControllerChecks::Deployment(in).outcome, Outcome::kWarn);
  in.deployment = {};
  in.deployment.Set(Replicas(2, 0));
  EXPECT_EQ(ControllerChecks::Deployment(in).outcome, Outcome::kFail);
  in.deployment.Set(Replicas(2, 2));
  auto r = ControllerChecks::Deployment(in);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.detail, "dra-system/dra-controller: 2/2 ready");
}

TEST(ControllerChecksTest, LeaseFreshWithinItsDuration) {
  CheckInputs in;
  in.now = 1000;
  in.lease.Set(LeaseInfo{"pod-1", 990, 15});
  EXPECT_EQ(ControllerChecks::Lease(in).outcome, Outcome::kPass);
  in.lease.Set(LeaseInfo{"pod-1", 980, 15});
  auto stale = ControllerChecks::Lease(in);
  EXPECT_EQ(stale.outcome, Outcome::kFail);
  EXPECT_EQ(stale.detail, "stale: held by pod-1, renewed 20s ago (duration 15s)");
  CheckInputs local = in;
  local.deployment.not_found = true;
  EXPECT_EQ(ControllerChecks::Lease(local).outcome, Outcome::kWarn);
  in.lease.Set(LeaseInfo{"", 999, 15});  // released
  EXPECT_EQ(ControllerChecks::Lease(in).outcome, Outcome::kFail);
  in.deployment.not_found = true;  // a local run's Lease, no install
  auto released = ControllerChecks::Lease(in);
  EXPECT_EQ(released.outcome, Outcome::kWarn);
  EXPECT_EQ(released.detail, "Lease dra-system/dra-controller released: no replica leads");
}

TEST(ControllerChecksTest, LeaseMissingFailsOnlyWhenDeployed) {
  CheckInputs in;
  in.lease.not_found = true;
  in.deployment.not_found = true;
  EXPECT_EQ(ControllerChecks::Lease(in).outcome, Outcome::kWarn);
  in.deployment = {};
  in.deployment.Set(Replicas(2, 2));
  EXPECT_EQ(ControllerChecks::Lease(in).outcome, Outcome::kFail);
}

TEST(ControllerChecksTest, SourcePolicyMissingOrUnreadableWarnsWithTheRisk) {
  CheckInputs in;
  in.source_policy.Set(true);
  EXPECT_EQ(ControllerChecks::SourcePolicy(in).outcome, Outcome::kPass);
  CheckInputs missing;
  missing.source_policy.not_found = true;
  auto absent = ControllerChecks::SourcePolicy(missing);
  EXPECT_EQ(absent.outcome, Outcome::kWarn);
  EXPECT_NE(absent.detail.find("not found"), std::string::npos) << absent.detail;
  EXPECT_NE(absent.detail.find("devicehealth-source-policy.yaml"), std::string::npos);
  CheckInputs denied;
  denied.source_policy.error = "forbidden";
  auto unreadable = ControllerChecks::SourcePolicy(denied);
  EXPECT_EQ(unreadable.outcome, Outcome::kWarn);
  EXPECT_NE(unreadable.detail.find("cannot read"), std::string::npos) << unreadable.detail;
}

TEST(ControllerChecksTest, SourcePolicyNotNeededWhenTheDeploymentRunsNoDeviceHealth) {
  CheckInputs in;
  in.source_policy.not_found = true;
  in.controller_user = "system:serviceaccount:dra-system:dra-controller";
  AccessCheck lease;
  lease.verb = "get";
  lease.resource = "leases.coordination.k8s.io";
  lease.feature = "leader election";
  in.controller_access = {lease};
  auto off = ControllerChecks::SourcePolicy(in);
  EXPECT_EQ(off.outcome, Outcome::kPass) << off.detail;
  EXPECT_NE(off.detail.find("device health is off"), std::string::npos) << off.detail;
  in.controller_access[0].feature = "device-health";
  EXPECT_EQ(ControllerChecks::SourcePolicy(in).outcome, Outcome::kWarn);
}

TEST(ControllerChecksTest, DeniedPermissionNamed) {
  CheckInputs in;
  AccessCheck granted;
  granted.verb = "list";
  granted.resource = "nodes";
  granted.allowed = true;
  in.access = {granted};
  EXPECT_EQ(ControllerChecks::Access(in).outcome, Outcome::kPass);
  AccessCheck denied;
  denied.verb = "get";
  denied.resource = "leases.coordination.k8s.io";
  denied.namespace_name = "dra-system";
  in.access.push_back(denied);
  auto r = ControllerChecks::Access(in);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.detail, "missing: get leases.coordination.k8s.io in dra-system");
}

TEST(ControllerChecksTest, ControllerServiceAccountPermissions) {
  CheckInputs in;
  EXPECT_EQ(ControllerChecks::ControllerAccess(in).outcome, Outcome::kWarn);
  in.controller_user = "system:serviceaccount:dra-system:dra-controller";
  AccessCheck status;
  status.verb = "patch";
  status.resource = "devicehealths.dra-controller.dev";
  status.subresource = "status";
  status.allowed = true;
  in.controller_access = {status};
  EXPECT_EQ(ControllerChecks::ControllerAccess(in).outcome, Outcome::kPass);
  in.controller_access[0].allowed = false;
  auto r = ControllerChecks::ControllerAccess(in);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.detail,
            "system:serviceaccount:dra-system:dra-controller missing: patch "
            "devicehealths.dra-controller.dev/status");
  in.controller_access[0].feature = "device-health";
  EXPECT_EQ(ControllerChecks::ControllerAccess(in).detail,
            "system:serviceaccount:dra-system:dra-controller missing: patch "
            "devicehealths.dra-controller.dev/status (device-health)");
  in.controller_needs_error = "flag --nope is unknown";
  auto unreadable = ControllerChecks::ControllerAccess(in);
  EXPECT_EQ(unreadable.outcome, Outcome::kFail);
  EXPECT_NE(unreadable.detail.find("flag --nope is unknown"), std::string::npos);
}

}  // namespace
}  // namespace dra::check
