#include <gtest/gtest.h>

#include "src/base/Base64.h"
#include "src/config/Kubeconfig.h"
#include "tests/support/TempDir.h"

namespace kube {
namespace {

using dra::testing::TempDir;

const char kCaPem[] = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";

std::string TwoContexts() {
  return R"(apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: main
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority-data: )" +
         Base64Encode(kCaPem) + R"(
- name: other
  cluster:
    server: https://other:443
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    client-certificate-data: )" +
         Base64Encode("CERT") + R"(
    client-key-data: )" +
         Base64Encode("KEY") + R"(
- name: robot
  user:
    token: " abc123 "
contexts:
- name: admin
  context: {cluster: main, user: admin}
- name: robot
  context: {cluster: other, user: robot, namespace: gpus}
)";
}

TEST(KubeconfigTest, CurrentContextWithEmbeddedData) {
  auto kc = Kubeconfig::Parse(TwoContexts(), "/tmp");
  ASSERT_TRUE(kc.ok()) << kc.status().ToString();
  auto config = kc->ToRestConfig();
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->server, "https://127.0.0.1:6443") << "trailing slash dropped";
  EXPECT_EQ(config->ca_pem, kCaPem);
  EXPECT_EQ(config->client_cert_pem, "CERT");
  EXPECT_EQ(config->client_key_pem, "KEY");
  EXPECT_EQ(config->token, nullptr);
  EXPECT_EQ(config->namespace_name, "default");
  EXPECT_FALSE(config->insecure_skip_tls_verify);
}

TEST(KubeconfigTest, ExplicitContextWithTokenAndNamespace) {
  auto config = Kubeconfig::Parse(TwoContexts(), "/tmp")->ToRestConfig("robot");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->server, "https://other:443");
  EXPECT_TRUE(config->insecure_skip_tls_verify);
  EXPECT_EQ(config->namespace_name, "gpus");
  ASSERT_NE(config->token, nullptr);
  EXPECT_EQ(*config->token->Token(), "abc123");
}

TEST(KubeconfigTest, RelativeFilesResolveAgainstKubeconfigDirectory) {
  TempDir dir;
  dir.Write("pki/ca.crt", kCaPem);
  dir.Write("pki/client.crt", "CERT");
  dir.Write("pki/client.key", "KEY");
  dir.Write("token", "from-file\n");
  std::string path = dir.Write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://h:1", certificate-authority: pki/ca.crt}}]
users:
- {name: u, user: {client-certificate: pki/client.crt, client-key: pki/client.key, tokenFile: token}}
contexts: [{name: c, context: {cluster: k, user: u}}]
)");
  auto kc = Kubeconfig::LoadFile(path);
  ASSERT_TRUE(kc.ok()) << kc.status().ToString();
  auto config = kc->ToRestConfig();
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->ca_pem, kCaPem);
  EXPECT_EQ(config->client_cert_pem, "CERT");
  ASSERT_NE(config->token, nullptr);
  EXPECT_EQ(*config->token->Token(), "from-file");
}

TEST(KubeconfigTest, MergeKeepsFirstDefinitionAndFirstCurrentContext) {
  TempDir dir;
  std::string first = dir.Write("a", R"(
current-context: a
clusters: [{name: shared, cluster: {server: "https://first"}}]
contexts: [{name: a, context: {cluster: shared}}]
)");
  std::string second = dir.Write("b", R"(
current-context: b
clusters: [{name: shared, cluster: {server: "https://second"}}, {name: only-b, cluster: {server: "https://b"}}]
contexts: [{name: b, context: {cluster: only-b}}]
)");
  auto merged = Kubeconfig::LoadFiles({first, second});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(merged->current_context(), "a");
  EXPECT_EQ(merged->ToRestConfig()->server, "https://first");
  EXPECT_EQ(merged->ToRestConfig("b")->server, "https://b");
}

TEST(KubeconfigTest, ImpersonationIsCarriedIntoTheRestConfig) {
  auto kc = Kubeconfig::Parse(R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h"}}]
users:
- name: u
  user:
    token: t
    as: jane
    as-uid: u-1
    as-groups: [devs, ops]
    as-user-extra: {scopes: [view, edit]}
contexts: [{name: x, context: {cluster: c, user: u}}]
)",
                              "/tmp");
  ASSERT_TRUE(kc.ok()) << kc.status().ToString();
  auto config = kc->ToRestConfig();
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->impersonate.user, "jane");
  EXPECT_EQ(config->impersonate.uid, "u-1");
  EXPECT_EQ(config->impersonate.groups, (std::vector<std::string>{"devs", "ops"}));
  EXPECT_EQ(config->impersonate.extra.at("scopes"), (std::vector<std::string>{"view", "edit"}));
}

TEST(KubeconfigTest, ClientCertificateFilesAreRememberedForRotation) {
  TempDir dir;
  std::string cert = dir.Write("client.crt", "CERT");
  std::string key = dir.Write("client.key", "KEY");
  auto kc = Kubeconfig::Parse(R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h"}}]
users: [{name: u, user: {client-certificate: client.crt, client-key: client.key}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
)",
                              dir.path().string());
  ASSERT_TRUE(kc.ok()) << kc.status().ToString();
  auto config = kc->ToRestConfig();
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->client_cert_pem, "CERT");
  EXPECT_EQ(config->client_cert_file, cert);
  EXPECT_EQ(config->client_key_file, key);
}

struct BadKubeconfig {
  const char* name;
  const char* yaml;
  StatusCode code;
  const char* message_part;
};

void PrintTo(const BadKubeconfig& c, std::ostream* os) { *os << c.name; }

class KubeconfigErrorTest : public ::testing::TestWithParam<BadKubeconfig> {};

TEST_P(KubeconfigErrorTest, ReportsClearError) {
  const auto& c = GetParam();
  auto kc = Kubeconfig::Parse(c.yaml, "/tmp");
  Status status = kc.ok() ? kc->ToRestConfig().status() : kc.status();
  ASSERT_FALSE(status.ok()) << c.name;
  EXPECT_EQ(status.code(), c.code) << status.ToString();
  EXPECT_NE(status.message().find(c.message_part), std::string::npos) << status.ToString();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, KubeconfigErrorTest,
    ::testing::Values(
        BadKubeconfig{"malformed", "clusters: [", StatusCode::kParseError, "invalid YAML at line"},
        BadKubeconfig{"scalar root", "hello", StatusCode::kParseError, "must be a YAML mapping"},
        BadKubeconfig{"clusters not list", "clusters: {a: b}", StatusCode::kParseError,
                      "must be a list"},
        BadKubeconfig{"server not string", "clusters: [{name: a, cluster: {server: [1]}}]",
                      StatusCode::kParseError, "'server' must be a string"},
        BadKubeconfig{"bad bool",
                      "clusters: [{name: a, cluster: {insecure-skip-tls-verify: maybe}}]",
                      StatusCode::kParseError, "true or false"},
        BadKubeconfig{"bad base64",
                      "clusters: [{name: a, cluster: {certificate-authority-data: '!!'}}]",
                      StatusCode::kParseError, "certificate-authority-data"},
        BadKubeconfig{"entry without name", "users: [{user: {token: x}}]", StatusCode::kParseError,
                      "has no name"},
        BadKubeconfig{"no current context", "clusters: []", StatusCode::kInvalidArgument,
                      "no current-context"},
        BadKubeconfig{"missing context", "current-context: x", StatusCode::kNotFound,
                      "context \"x\" not found"},
        BadKubeconfig{"missing cluster",
                      "current-context: x\ncontexts: [{name: x, context: {cluster: c}}]",
                      StatusCode::kNotFound, "cluster \"c\""},
        BadKubeconfig{"exec plugin", R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h"}}]
users: [{name: u, user: {exec: {command: aws}}}]
contexts: [{name: x, context: {cluster: c, user: u}}])",
                      StatusCode::kInvalidArgument, "exec credential plugins"},
        BadKubeconfig{"cert without key", R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h"}}]
users: [{name: u, user: {client-certificate-data: Q0VSVA==}}]
contexts: [{name: x, context: {cluster: c, user: u}}])",
                      StatusCode::kInvalidArgument, "without a key"},
        BadKubeconfig{"insecure with ca", R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h", insecure-skip-tls-verify: true,
            certificate-authority-data: Q0E=}}]
contexts: [{name: x, context: {cluster: c}}])",
                      StatusCode::kInvalidArgument,
                      "insecure-skip-tls-verify and a certificate-authority"},
        BadKubeconfig{"proxy url", R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h", proxy-url: "http://proxy:3128"}}]
contexts: [{name: x, context: {cluster: c}}])",
                      StatusCode::kInvalidArgument, "proxy-url"},
        BadKubeconfig{"as-groups not a list", R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h"}}]
users: [{name: u, user: {as: a, as-groups: admins}}]
contexts: [{name: x, context: {cluster: c, user: u}}])",
                      StatusCode::kParseError, "'as-groups' must be a list"},
        BadKubeconfig{"missing ca file", R"(current-context: x
clusters: [{name: c, cluster: {server: "https://h", certificate-authority: /nonexistent/ca}}]
contexts: [{name: x, context: {cluster: c}}])",
                      StatusCode::kNotFound, "/nonexistent/ca"}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& ch : n) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      return n;
    });

}  // namespace
}  // namespace kube
