#include <gtest/gtest.h>

#include "controller/health/HealthFlags.h"

namespace dra::health {
namespace {

using namespace std::chrono_literals;

kube::Result<HealthOptions> Parse(std::vector<std::string> args) {
  kube::FlagSet flags;
  HealthFlags::Declare(flags);
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) return parsed;
  return HealthFlags::Parse(flags);
}

TEST(HealthFlagsTest, Defaults) {
  auto options = Parse({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->preview, 30s);
  EXPECT_EQ(options->hold_off, 300s);
  EXPECT_DOUBLE_EQ(options->storm_share, 0.25);
  EXPECT_FALSE(options->dry_run);
  EXPECT_EQ(options->workers, 4);
}

TEST(HealthFlagsTest, ParsesAndRefuses) {
  auto options = Parse({"--health-dry-run", "--health-preview", "0", "--health-hold-off", "90s",
                        "--health-storm-guard-percent", "50", "--health-workers", "8"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_TRUE(options->dry_run);
  EXPECT_EQ(options->preview, 0s);
  EXPECT_EQ(options->hold_off, 90s);
  EXPECT_DOUBLE_EQ(options->storm_share, 0.5);
  EXPECT_EQ(options->workers, 8);
  auto bad = Parse({"--health-storm-guard-percent", "101"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("--health-storm-guard-percent"), std::string::npos);
  EXPECT_FALSE(Parse({"--health-preview", "soon"}).ok());
  auto no_workers = Parse({"--health-workers", "0"});
  ASSERT_FALSE(no_workers.ok());
  EXPECT_NE(no_workers.status().message().find("--health-workers \"0\": want an integer in 1..64"),
            std::string::npos);
  EXPECT_FALSE(Parse({"--health-workers", "4x"}).ok());
}

// Issue 38: tests and operators turn the preview off with 0s, in either flag form.
TEST(HealthFlagsTest, ZeroDurationTurnsThePreviewOff) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--health-preview=0s"},
                                                                {"--health-preview", "0s"},
                                                                {"--health-preview=0"},
                                                                {"--health-preview", "0m"}}) {
    auto options = Parse(args);
    ASSERT_TRUE(options.ok()) << args[0] << ": " << options.status().ToString();
    EXPECT_EQ(options->preview, 0s) << args[0];
  }
  auto negative = Parse({"--health-preview=-1s"});
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().message().find("--health-preview"), std::string::npos);
}

TEST(HealthFlagsTest, ExtendedResourceEvictionsAutoOnOff) {
  using Mode = HealthOptions::SelfEviction;
  EXPECT_EQ(Parse({})->extended_resource_evictions, Mode::kAuto);
  EXPECT_EQ(Parse({"--health-extended-resource-evictions", "on"})->extended_resource_evictions,
            Mode::kOn);
  EXPECT_EQ(Parse({"--health-extended-resource-evictions", "off"})->extended_resource_evictions,
            Mode::kOff);
  auto bad = Parse({"--health-extended-resource-evictions", "yes"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("auto, on or off"), std::string::npos);
}

}  // namespace
}  // namespace dra::health
