#include <gtest/gtest.h>

#include "controller/api/DraReleases.h"
#include "controller/api/TaintRuleApi.h"

namespace dra::api {
namespace {

TEST(DraReleasesTest, MinorOfAGitVersion) {
  EXPECT_EQ(DraReleases::Minor("v1.36.3"), 36);
  EXPECT_EQ(DraReleases::Minor("v1.34.4-gke.1200"), 34);
  EXPECT_EQ(DraReleases::Minor("v1.37.0-alpha.1"), 37);
  EXPECT_FALSE(DraReleases::Minor("1.36.3").has_value());
  EXPECT_FALSE(DraReleases::Minor("v2.0.0").has_value());
  EXPECT_FALSE(DraReleases::Minor("v1.x").has_value());
  EXPECT_FALSE(DraReleases::Minor("").has_value());
}

TEST(DraReleasesTest, DeviceTaintRulesMoveFromAlphaToGa) {
  auto rules = [](int minor) { return DraReleases::In(DraCapability::kDeviceTaintRules, minor); };
  EXPECT_EQ(rules(34).api_version, "resource.k8s.io/v1alpha3");
  EXPECT_EQ(rules(34).gates, (std::vector<std::string>{"DRADeviceTaints"}));
  EXPECT_EQ(rules(35).gates, (std::vector<std::string>{"DRADeviceTaints", "DRADeviceTaintRules"}));
  EXPECT_EQ(rules(36).api_version, "resource.k8s.io/v1beta2");
  EXPECT_FALSE(rules(36).on_by_default);
  EXPECT_EQ(rules(36).runtime_config, "resource.k8s.io/v1beta2=true");
  EXPECT_TRUE(rules(37).on_by_default);
  EXPECT_EQ(rules(37).api_version, "resource.k8s.io/v1");
  EXPECT_EQ(rules(40).maturity, "GA");  // newer releases read as the newest known
}

TEST(DraReleasesTest, ExtendedResourcesAreBetaAndOnIn136) {
  auto er = [](int minor) { return DraReleases::In(DraCapability::kExtendedResources, minor); };
  EXPECT_FALSE(er(35).on_by_default);
  EXPECT_EQ(er(35).maturity, "alpha");
  EXPECT_TRUE(er(36).on_by_default);
  EXPECT_EQ(er(36).maturity, "beta");
  EXPECT_EQ(er(37).maturity, "GA");
}

TEST(DraReleasesTest, HowToEnableNamesGatesAndRuntimeConfig) {
  EXPECT_EQ(DraReleases::HowToEnable(DraCapability::kDeviceTaintRules, 37), "on by default (GA)");
  std::string v136 = DraReleases::HowToEnable(DraCapability::kDeviceTaintRules, 36);
  EXPECT_NE(v136.find("feature gate DRADeviceTaintRules (beta, off by default)"), std::string::npos)
      << v136;
  EXPECT_NE(v136.find("--runtime-config=resource.k8s.io/v1beta2=true"), std::string::npos) << v136;
  std::string v135 = DraReleases::HowToEnable(DraCapability::kDeviceTaintRules, 35);
  EXPECT_NE(v135.find("feature gates DRADeviceTaints and DRADeviceTaintRules"), std::string::npos)
      << v135;
}

TEST(TaintRuleApiTest, NotServedSaysWhatToTurnOn) {
  std::string v136 = TaintRuleApi::NotServed("v1.36.3");
  EXPECT_NE(v136.find("DRADeviceTaintRules"), std::string::npos) << v136;
  EXPECT_NE(v136.find("resource.k8s.io/v1beta2=true"), std::string::npos) << v136;
  std::string v137 = TaintRuleApi::NotServed("v1.37.2");
  EXPECT_NE(v137.find("turned off"), std::string::npos) << v137;
  EXPECT_NE(TaintRuleApi::NotServed("weird").find("(weird)"), std::string::npos);
}

TEST(TaintRuleApiTest, VersionsNewestFirst) {
  EXPECT_EQ(TaintRuleApi::GroupVersions().front(), "resource.k8s.io/v1");
  EXPECT_EQ(TaintRuleApi::At("v1beta2").ApiVersion(), "resource.k8s.io/v1beta2");
  EXPECT_EQ(TaintRuleApi::At("v1alpha3").ItemPath("", "r"),
            "/apis/resource.k8s.io/v1alpha3/devicetaintrules/r");
}

}  // namespace
}  // namespace dra::api
