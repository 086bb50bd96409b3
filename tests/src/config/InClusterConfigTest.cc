#include <gtest/gtest.h>
#include <stdlib.h>

#include "src/config/InClusterConfig.h"
#include "tests/support/TempDir.h"

namespace kube {
namespace {

using dra::testing::TempDir;

class InClusterConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1", 1);
    setenv("KUBERNETES_SERVICE_PORT", "443", 1);
  }
  void TearDown() override {
    unsetenv("KUBERNETES_SERVICE_HOST");
    unsetenv("KUBERNETES_SERVICE_PORT");
  }
  TempDir sa_;
};

TEST_F(InClusterConfigTest, ReadsServiceAccountDirectory) {
  sa_.Write("token", "sa-token\n");
  sa_.Write("ca.crt", "PEM\n");
  sa_.Write("namespace", "dra-system");
  ASSERT_TRUE(InClusterConfig::Available(sa_.path().string()));
  auto config = InClusterConfig::Load(sa_.path().string());
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->server, "https://10.0.0.1:443");
  EXPECT_EQ(config->namespace_name, "dra-system");
  EXPECT_EQ(*config->token->Token(), "sa-token");
  EXPECT_EQ(config->ca_pem, "PEM\n");
}

TEST_F(InClusterConfigTest, BracketsIpv6Hosts) {
  setenv("KUBERNETES_SERVICE_HOST", "fd00::1", 1);
  sa_.Write("token", "t");
  sa_.Write("ca.crt", "PEM");
  EXPECT_EQ(InClusterConfig::Load(sa_.path().string())->server, "https://[fd00::1]:443");
}

TEST_F(InClusterConfigTest, MissingTokenIsUnavailable) {
  auto config = InClusterConfig::Load(sa_.path().string());
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("automountServiceAccountToken"), std::string::npos);
}

TEST_F(InClusterConfigTest, OutsideAPodIsUnavailable) {
  TearDown();
  sa_.Write("token", "t");
  EXPECT_FALSE(InClusterConfig::Available(sa_.path().string()));
  EXPECT_EQ(InClusterConfig::Load(sa_.path().string()).status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace kube
