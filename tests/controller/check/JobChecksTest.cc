#include <gtest/gtest.h>

#include "controller/check/JobChecks.h"

namespace dra::check {
namespace {

using Outcome = CheckResult::Outcome;

CheckInputs At(const std::string& version) {
  CheckInputs in;
  in.version.Set(version);
  return in;
}

TEST(JobChecksTest, DeviceHealthNamesWhereRulesAreServed) {
  auto in = At("v1.37.2");
  in.taint_rules_api.Set("resource.k8s.io/v1");
  auto r = JobChecks::DeviceHealth(in);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.detail, "DeviceTaintRules served at resource.k8s.io/v1");
}

TEST(JobChecksTest, DeviceHealthOn136NamesTheOtherComponentsGateAndTheEvictionGap) {
  auto in = At("v1.36.3");
  in.taint_rules_api.Set("resource.k8s.io/v1beta2");
  auto r = JobChecks::DeviceHealth(in);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_NE(r.detail.find("DRADeviceTaintRules must be on in kube-scheduler"), std::string::npos)
      << r.detail;
  EXPECT_NE(r.detail.find("kube-controller-manager 1.36 does not evict"), std::string::npos)
      << r.detail;
}

TEST(JobChecksTest, DeviceHealthNotServedWarnsWithWhatToTurnOn) {
  auto in = At("v1.35.4");
  in.taint_rules_api.not_found = true;
  auto r = JobChecks::DeviceHealth(in);
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_NE(r.detail.find("DRADeviceTaints and DRADeviceTaintRules"), std::string::npos)
      << r.detail;
  EXPECT_NE(r.detail.find("resource.k8s.io/v1alpha3=true"), std::string::npos) << r.detail;
}

TEST(JobChecksTest, ExtendedResourcesFollowTheDryRunNotTheVersion) {
  auto in = At("v1.35.4");  // alpha by default, but the gate was turned on
  in.extended_resources.Set(true);
  EXPECT_EQ(JobChecks::ExtendedResources(in).outcome, Outcome::kPass);
  auto off = At("v1.36.3");  // beta and on by default, but turned off
  off.extended_resources.Set(false);
  auto r = JobChecks::ExtendedResources(off);
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_NE(r.detail.find("drops spec.extendedResourceName"), std::string::npos) << r.detail;
  auto unknown = At("v1.35.4");
  unknown.extended_resources.error = "forbidden";
  auto u = JobChecks::ExtendedResources(unknown);
  EXPECT_EQ(u.outcome, Outcome::kWarn);
  EXPECT_NE(u.detail.find("forbidden"), std::string::npos) << u.detail;
  EXPECT_NE(u.detail.find("DRAExtendedResource (alpha"), std::string::npos) << u.detail;
}

TEST(JobChecksTest, KubeletReportsFromTheReleasesDefaults) {
  EXPECT_EQ(JobChecks::KubeletHealthReports(At("v1.36.3")).outcome, Outcome::kPass);
  auto r = JobChecks::KubeletHealthReports(At("v1.34.4"));
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_NE(r.detail.find("ResourceHealthStatus"), std::string::npos) << r.detail;
}

}  // namespace
}  // namespace dra::check
