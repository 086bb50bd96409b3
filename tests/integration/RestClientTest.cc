// REST verbs and typed errors against the real kube-apiserver.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>

#include "src/client/RestClient.h"
#include "src/client/RetryOnConflict.h"
#include "src/config/ConfigLoader.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

using nlohmann::json;

const kube::ResourceType kConfigMaps{"", "v1", "configmaps", true, "ConfigMap"};

class RestClientTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto ns = cluster_->CreateTestNamespace("rest");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }
  void TearDown() override {
    if (cluster_ && !ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  json ConfigMap(const std::string& name, const std::string& value) {
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", name}, {"namespace", ns_}}},
            {"data", {{"x", value}}}};
  }

  std::string ns_;
};

TEST_F(RestClientTest, ServerSideApplyConflictsUnlessForced) {
  std::string path = kConfigMaps.ItemPath(ns_, "ssa");
  auto first = client_->Apply(path, ConfigMap("ssa", "1"), "manager-a", false);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ((*first)["data"]["x"], "1");

  auto conflict = client_->Apply(path, ConfigMap("ssa", "2"), "manager-b", false);
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.status().code(), kube::StatusCode::kConflict) << conflict.status().ToString();
  EXPECT_NE(conflict.status().message().find("manager-a"), std::string::npos);

  auto forced = client_->Apply(path, ConfigMap("ssa", "2"), "manager-b", true);
  ASSERT_TRUE(forced.ok()) << forced.status().ToString();
  EXPECT_EQ((*forced)["data"]["x"], "2");
}

TEST_F(RestClientTest, StaleUpdateConflictsAndRetryWithFreshReadSucceeds) {
  auto created = client_->Create(kConfigMaps, ns_, ConfigMap("cas", "0"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  std::string path = kConfigMaps.ItemPath(ns_, "cas");
  json stale = *created;
  ASSERT_TRUE(client_->Patch(path, kube::PatchType::kMerge, R"({"data":{"x":"1"}})").ok());

  stale["data"]["x"] = "stale";
  auto rejected = client_->Update(path, stale);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().code(), kube::StatusCode::kConflict);

  int attempts = 0;
  kube::Status retried = kube::RetryOnConflict([&] {
    ++attempts;
    auto fresh = attempts == 1 ? kube::Result<json>(stale) : client_->Get(path);
    if (!fresh.ok()) return fresh.status();
    (*fresh)["data"]["x"] = "2";
    auto updated = client_->Update(path, *fresh);
    return updated.ok() ? kube::Status::Ok() : updated.status();
  });
  EXPECT_TRUE(retried.ok()) << retried.ToString();
  EXPECT_EQ(attempts, 2) << "first attempt used a stale object, second a fresh read";
  EXPECT_EQ((*client_->Get(path))["data"]["x"], "2");
}

TEST_F(RestClientTest, TypedErrors) {
  auto missing = client_->Get(kConfigMaps.ItemPath(ns_, "nope"));
  EXPECT_EQ(missing.status().code(), kube::StatusCode::kNotFound);
  EXPECT_EQ(client_->Delete(kConfigMaps.ItemPath(ns_, "nope")).code(), kube::StatusCode::kNotFound);

  ASSERT_TRUE(client_->Create(kConfigMaps, ns_, ConfigMap("dup", "1")).ok());
  EXPECT_EQ(client_->Create(kConfigMaps, ns_, ConfigMap("dup", "1")).status().code(),
            kube::StatusCode::kAlreadyExists);

  auto invalid = client_->Create(kConfigMaps, ns_, ConfigMap("Not_Valid", "1"));
  EXPECT_EQ(invalid.status().code(), kube::StatusCode::kInvalid);
  EXPECT_NE(invalid.status().message().find("metadata.name"), std::string::npos)
      << invalid.status().ToString();

  kube::DeleteOptions wrong_uid;
  wrong_uid.precondition_uid = "00000000-0000-0000-0000-000000000000";
  EXPECT_EQ(client_->Delete(kConfigMaps.ItemPath(ns_, "dup"), wrong_uid).code(),
            kube::StatusCode::kConflict);
  EXPECT_TRUE(client_->Delete(kConfigMaps.ItemPath(ns_, "dup")).ok());
}

// A CA that did not sign the apiserver's certificate, made with the openssl CLI.
std::string ForeignCaPem() {
  TempDir dir;
  std::string key = (dir.path() / "ca.key").string(), crt = (dir.path() / "ca.crt").string();
  auto made = Subprocess::Run({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                               "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out",
                               crt, "-subj", "/CN=foreign-ca", "-days", "1"});
  if (!made.ok() || made->exit_code != 0) return "";
  std::ifstream in(crt);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_F(RestClientTest, UntrustedServerCertificateIsExplained) {
  kube::ConfigOptions options;
  options.kubeconfig_flag = cluster_->kubeconfig();
  auto config = kube::ConfigLoader::Load(options);
  ASSERT_TRUE(config.ok());
  config->ca_pem = ForeignCaPem();
  ASSERT_FALSE(config->ca_pem.empty());
  auto transport = kube::HttpTransport::Create(*config);
  ASSERT_TRUE(transport.ok()) << transport.status().ToString();
  kube::HttpRequest request;
  request.path = "/version";
  auto refused = (*transport)->Send(request);
  ASSERT_FALSE(refused.ok()) << "the system store or a default must not be trusted instead";
  EXPECT_EQ(refused.status().code(), kube::StatusCode::kUnavailable);
  // OpenSSL names the verification failure; the transport adds what to check.
  EXPECT_NE(refused.status().message().find("unable to get local issuer certificate"),
            std::string::npos)
      << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("not signed by the configured certificate-authority"),
            std::string::npos)
      << refused.status().ToString();
  std::cout << "untrusted CA: " << refused.status().ToString() << "\n";

  config->insecure_skip_tls_verify = true;
  auto insecure = kube::HttpTransport::Create(*config);
  ASSERT_TRUE(insecure.ok());
  auto answered = (*insecure)->Send(request);
  ASSERT_TRUE(answered.ok()) << answered.status().ToString();
  EXPECT_EQ(answered->status, 200);
}

}  // namespace
}  // namespace dra::testing
