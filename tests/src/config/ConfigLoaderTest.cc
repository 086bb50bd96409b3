#include <gtest/gtest.h>

#include "src/config/ConfigLoader.h"
#include "tests/support/TempDir.h"

namespace kube {
namespace {

using dra::testing::TempDir;

std::string KubeconfigFor(const std::string& server) {
  return "current-context: c\nclusters: [{name: k, cluster: {server: \"" + server +
         "\"}}]\ncontexts: [{name: c, context: {cluster: k}}]\n";
}

TEST(ConfigLoaderTest, FlagWinsOverEnvironment) {
  TempDir dir;
  ConfigOptions options;
  options.kubeconfig_flag = dir.Write("flag", KubeconfigFor("https://flag"));
  options.kubeconfig_env = dir.Write("env", KubeconfigFor("https://env"));
  EXPECT_EQ(ConfigLoader::Load(options)->server, "https://flag");
}

TEST(ConfigLoaderTest, EnvironmentListIsMerged) {
  TempDir dir;
  ConfigOptions options;
  options.kubeconfig_env = dir.Write("a", KubeconfigFor("https://a")) + "::" +
                           dir.Write("b", "contexts: [{name: other, context: {cluster: k}}]\n");
  options.context = "other";
  auto config = ConfigLoader::Load(options);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->server, "https://a");
}

TEST(ConfigLoaderTest, FallsBackToHomeKubeconfig) {
  TempDir dir;
  dir.Write(".kube/config", KubeconfigFor("https://home"));
  ConfigOptions options;
  options.home = dir.path().string();
  options.service_account_dir = (dir.path() / "no-sa").string();
  EXPECT_EQ(ConfigLoader::Load(options)->server, "https://home");
}

TEST(ConfigLoaderTest, NothingConfiguredExplainsTheChoices) {
  ConfigOptions options;
  options.service_account_dir = "/nonexistent";
  auto config = ConfigLoader::Load(options);
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(config.status().message().find("--kubeconfig"), std::string::npos);
}

TEST(ConfigLoaderTest, MissingFlagFileIsReported) {
  ConfigOptions options;
  options.kubeconfig_flag = "/nonexistent/kubeconfig";
  auto config = ConfigLoader::Load(options);
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("/nonexistent/kubeconfig"), std::string::npos);
}

}  // namespace
}  // namespace kube
