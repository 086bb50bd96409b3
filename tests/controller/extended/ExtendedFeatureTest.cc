#include <gtest/gtest.h>

#include <vector>

#include "controller/extended/ExtendedFeature.h"

namespace dra::extended {
namespace {

kube::Status Parse(ExtendedFeature& feature, std::vector<std::string> args) {
  kube::FlagSet flags;
  feature.DeclareFlags(flags);
  KUBE_RETURN_IF_ERROR(flags.Parse(args));
  return feature.ParseFlags(flags);
}

TEST(ExtendedFeatureTest, FlagsDefaultOff) {
  ExtendedFeature feature;
  ASSERT_TRUE(Parse(feature, {}).ok());
  EXPECT_FALSE(feature.options().repair_mapping);
  EXPECT_EQ(feature.options().leak_grace_period, std::chrono::minutes(5));
  EXPECT_FALSE(feature.options().delete_leaked_claims);
}

TEST(ExtendedFeatureTest, FlagsParse) {
  ExtendedFeature feature;
  kube::Status parsed =
      Parse(feature, {"--repair-extended-resource-mapping",
                      "--extended-resource-leak-grace-period=90s", "--delete-leaked-claims"});
  ASSERT_TRUE(parsed.ok()) << parsed.ToString();
  EXPECT_TRUE(feature.options().repair_mapping);
  EXPECT_TRUE(feature.options().delete_leaked_claims);
  EXPECT_EQ(feature.options().leak_grace_period, std::chrono::seconds(90));
}

TEST(ExtendedFeatureTest, BadLeakGracePeriodIsAUsageError) {
  for (const char* bad : {"soon", "0s", "-1m"}) {
    ExtendedFeature feature;
    kube::Status parsed =
        Parse(feature, {std::string("--extended-resource-leak-grace-period=") + bad});
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.code(), kube::StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.message().find("--extended-resource-leak-grace-period"), std::string::npos);
  }
}

}  // namespace
}  // namespace dra::extended
