#include <gtest/gtest.h>

#include <vector>

#include "controller/cli/RunOptions.h"

namespace dra::cli {
namespace {

kube::Result<RunOptions> Parse(std::vector<std::string> args) {
  FlagSet flags;
  RunOptions::Declare(flags);
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) return parsed;
  return RunOptions::FromFlags(flags);
}

// Extended resources (#8)
TEST(RunOptionsTest, ExtendedResourceFlagsDefaultOff) {
  auto options = Parse({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_FALSE(options->extended.repair_mapping);
  EXPECT_EQ(options->extended.leak_grace_period, std::chrono::minutes(5));
  EXPECT_FALSE(options->extended.delete_leaked_claims);
}

TEST(RunOptionsTest, ExtendedResourceFlagsParse) {
  auto options = Parse({"--repair-extended-resource-mapping",
                        "--extended-resource-leak-grace-period=90s", "--delete-leaked-claims"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_TRUE(options->extended.repair_mapping);
  EXPECT_TRUE(options->extended.delete_leaked_claims);
  EXPECT_EQ(options->extended.leak_grace_period, std::chrono::seconds(90));
}

TEST(RunOptionsTest, BadLeakGracePeriodIsAUsageError) {
  for (const char* bad : {"soon", "0s", "-1m"}) {
    auto options = Parse({std::string("--extended-resource-leak-grace-period=") + bad});
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_NE(options.status().message().find("--extended-resource-leak-grace-period"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace dra::cli
