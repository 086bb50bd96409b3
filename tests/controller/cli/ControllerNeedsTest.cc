#include <gtest/gtest.h>

#include <algorithm>

#include "controller/cli/ControllerNeeds.h"

namespace dra::cli {
namespace {

bool Needs(const std::vector<check::ControllerNeed>& needs, const std::string& verb,
           const std::string& resource, const std::string& subresource = "") {
  return std::any_of(needs.begin(), needs.end(), [&](const check::ControllerNeed& n) {
    return n.verb == verb && n.resource == resource && n.subresource == subresource;
  });
}

bool AnyWrite(const std::vector<check::ControllerNeed>& needs, const std::string& resource) {
  return std::any_of(needs.begin(), needs.end(), [&](const check::ControllerNeed& n) {
    return n.resource == resource && n.verb != "get" && n.verb != "list" && n.verb != "watch";
  });
}

TEST(ControllerNeedsTest, TheShippedArgsNeedHealthSourcesReviewsAndTheLease) {
  auto needs = ControllerNeeds::For(
      {"run", "--leader-elect", "--metrics-secure", "--alertmanager-webhook-bind-address=:8444"});
  ASSERT_TRUE(needs.ok()) << needs.status().ToString();
  EXPECT_TRUE(Needs(*needs, "patch", "devicetaintrules.resource.k8s.io"));
  EXPECT_TRUE(Needs(*needs, "act-as-source", "devicehealths.dra-controller.dev"));
  EXPECT_TRUE(Needs(*needs, "patch", "devicehealths.dra-controller.dev", "status"));
  EXPECT_TRUE(Needs(*needs, "create", "tokenreviews.authentication.k8s.io"));
  EXPECT_TRUE(Needs(*needs, "get", "leases.coordination.k8s.io"));
  EXPECT_FALSE(AnyWrite(*needs, "resourceclaims.resource.k8s.io"));
  EXPECT_FALSE(Needs(*needs, "patch", "deviceclasses.resource.k8s.io"));
}

TEST(ControllerNeedsTest, EachPermissionOnceUnderTheFirstFeatureNeedingIt) {
  auto needs = ControllerNeeds::For({"--alertmanager-webhook-bind-address=:8444"});
  ASSERT_TRUE(needs.ok());
  int count = 0;
  for (const auto& n : *needs) {
    if (n.verb == "create" && n.resource == "devicehealths.dra-controller.dev") {
      ++count;
      EXPECT_EQ(n.feature, "kubelet-health-reports");
    }
  }
  EXPECT_EQ(count, 1);
}

TEST(ControllerNeedsTest, OptInFeaturesAddTheirWrites) {
  auto needs = ControllerNeeds::For(
      {"run", "--repair-extended-resource-mapping", "--delete-leaked-claims=true"});
  ASSERT_TRUE(needs.ok());
  EXPECT_TRUE(Needs(*needs, "patch", "deviceclasses.resource.k8s.io"));
  EXPECT_TRUE(Needs(*needs, "delete", "resourceclaims.resource.k8s.io"));
  EXPECT_TRUE(Needs(*needs, "update", "resourceclaims.resource.k8s.io", "binding"));
  EXPECT_FALSE(Needs(*needs, "get", "leases.coordination.k8s.io"));
}

TEST(ControllerNeedsTest, WithHealthOffNoTaintRuleOrDeviceHealthWrites) {
  auto needs = ControllerNeeds::For(
      {"run", "--controllers=*,-device-health", "--alertmanager-webhook-bind-address=:8444"});
  ASSERT_TRUE(needs.ok());
  EXPECT_FALSE(AnyWrite(*needs, "devicetaintrules.resource.k8s.io"));
  EXPECT_FALSE(AnyWrite(*needs, "devicehealths.dra-controller.dev"));
  EXPECT_FALSE(Needs(*needs, "list", "devicehealths.dra-controller.dev"));
  EXPECT_TRUE(Needs(*needs, "list", "pods"));
}

TEST(ControllerNeedsTest, UnreadableArgsAreAnError) {
  EXPECT_FALSE(ControllerNeeds::For({"run", "--no-such-flag"}).ok());
  EXPECT_FALSE(ControllerNeeds::For({"run", "--controllers=gpu"}).ok());
}

TEST(ControllerNeedsTest, EvictionsUnlessExtendedResourceEvictionsAreOff) {
  auto needs = ControllerNeeds::For({"run"});
  ASSERT_TRUE(needs.ok());
  EXPECT_TRUE(Needs(*needs, "create", "pods", "eviction"));
  auto off = ControllerNeeds::For({"run", "--health-extended-resource-evictions=off"});
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(Needs(*off, "create", "pods", "eviction"));
}

}  // namespace
}  // namespace dra::cli
