#include <gtest/gtest.h>

#include "controller/check/ApiChecks.h"

namespace dra::check {
namespace {

using Outcome = CheckResult::Outcome;

CheckInputs Served(std::vector<std::string> resources) {
  CheckInputs in;
  in.served.Set(std::move(resources));
  return in;
}

CheckResult VersionCheck(const std::string& version, const std::string& error = "") {
  CheckInputs in;
  if (error.empty()) in.version.Set(version);
  in.version.error = error;
  return ApiChecks::Version(in);
}

TEST(ApiChecksTest, VersionFromOneThirtyFourPasses) {
  EXPECT_EQ(VersionCheck("v1.37.2").outcome, Outcome::kPass);
  auto old = VersionCheck("v1.33.4");
  EXPECT_EQ(old.outcome, Outcome::kFail);
  EXPECT_NE(old.detail.find("older than 1.34"), std::string::npos) << old.detail;
}

TEST(ApiChecksTest, UnreadableOrOddVersion) {
  EXPECT_EQ(VersionCheck("", "connection refused").outcome, Outcome::kFail);
  EXPECT_EQ(VersionCheck("devel").outcome, Outcome::kWarn);
}

TEST(ApiChecksTest, AllResourcesServedPasses) {
  auto r = ApiChecks::ResourcesServed(
      Served({"deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices",
              "devicetaintrules"}));
  EXPECT_EQ(r.outcome, Outcome::kPass) << r.detail;
}

TEST(ApiChecksTest, MissingCoreResourceFailsAndNamesIt) {
  auto r = ApiChecks::ResourcesServed(
      Served({"deviceclasses", "resourceclaims", "resourceslices", "devicetaintrules"}));
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.detail, "not served: resourceclaimtemplates");
}

// Not at v1 (1.34-1.36 serve them elsewhere, behind a gate): job-device-health's matter.
TEST(ApiChecksTest, DeviceTaintRulesElsewhereStillPass) {
  auto r = ApiChecks::ResourcesServed(
      Served({"deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices"}));
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_NE(r.detail.find("see job-device-health"), std::string::npos) << r.detail;
}

TEST(ApiChecksTest, GroupNotServedFails) {
  CheckInputs in;
  in.served.not_found = true;
  EXPECT_EQ(ApiChecks::ResourcesServed(in).outcome, Outcome::kFail);
}

}  // namespace
}  // namespace dra::check
