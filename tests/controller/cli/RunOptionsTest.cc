#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "controller/cli/RunOptions.h"
#include "controller/health/HealthFeature.h"
#include "tests/support/RepoRoot.h"

namespace dra::cli {
namespace {

kube::Result<RunOptions> Parse(app::FeatureList& features, std::vector<std::string> args) {
  kube::FlagSet flags;
  RunOptions::Declare(flags, features);
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) return parsed;
  return RunOptions::FromFlags(flags, features);
}

TEST(RunOptionsTest, EveryFeatureParsesItsOwnFlags) {
  app::FeatureList features = app::AllFeatures();
  auto options = Parse(features, {"--health-preview=0", "--watch-list=off"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->watch_list, kube::WatchListMode::kOff);
  auto* health = dynamic_cast<health::HealthFeature*>(features.front().get());
  ASSERT_NE(health, nullptr);
  EXPECT_EQ(health->options().preview, std::chrono::seconds(0));
}

TEST(RunOptionsTest, AFeaturesBadFlagIsAUsageErrorNamingIt) {
  app::FeatureList features = app::AllFeatures();
  auto options = Parse(features, {"--metrics-device-attributes=a,,b c"});
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().code(), kube::StatusCode::kInvalidArgument);
  EXPECT_NE(options.status().message().find("--metrics-device-attributes"), std::string::npos);
}

TEST(RunOptionsTest, TokenReviewAudiencesAreAListWithoutEmptyItems) {
  app::FeatureList features = app::AllFeatures();
  auto none = Parse(features, {});
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none->manager.token_review_audiences.empty());
  auto two = Parse(features, {"--token-review-audiences=dra-controller, other"});
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_EQ(two->manager.token_review_audiences,
            (std::vector<std::string>{"dra-controller", "other"}));
  auto empty_item = Parse(features, {"--token-review-audiences=a,,b"});
  ASSERT_FALSE(empty_item.ok());
  EXPECT_NE(empty_item.status().message().find("--token-review-audiences"), std::string::npos);
}

// The self-signed certificate names the Service the manifests ship, unless
// told another.
TEST(RunOptionsTest, TheServiceNameDefaultsToTheShippedService) {
  std::ifstream file(dra::testing::RepoRoot::Path("manifests/base/service.yaml"));
  std::stringstream service;
  service << file.rdbuf();
  app::FeatureList features = app::AllFeatures();
  auto defaults = Parse(features, {});
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_NE(service.str().find("\n  name: " + defaults->manager.service_name + "\n"),
            std::string::npos)
      << defaults->manager.service_name;
  EXPECT_EQ(defaults->manager.service_namespace, "");
  auto other = Parse(features, {"--service-name=gpu-health", "--service-namespace=gpu"});
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_EQ(other->manager.service_name, "gpu-health");
  EXPECT_EQ(other->manager.service_namespace, "gpu");
}

TEST(RunOptionsTest, FeaturesHaveDistinctNames) {
  std::set<std::string> names;
  for (const auto& feature : app::AllFeatures()) {
    EXPECT_TRUE(names.insert(std::string(feature->Name())).second) << feature->Name();
  }
}

}  // namespace
}  // namespace dra::cli
