#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "src/auth/ServingCertificate.h"
#include "src/http/HttpTransport.h"
#include "src/manager/Manager.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using dra::testing::RecordedRequest;
using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;

constexpr const char* kTokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews";
constexpr const char* kAccessReviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

Route ReviewMentioning(const char* path, const std::string& text) {
  return Route::Where("POST", [path, text](const RecordedRequest& r) {
    return r.Path() == path && r.body.find(text) != std::string::npos;
  });
}

// kube-apiserver as far as secure metrics need it: the token "reader-token"
// is alice, who may get /metrics; "other-token" is bob, who may not.
class ManagerSecureMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto api = ScriptedHttpServer::Start();
    ASSERT_TRUE(api.ok());
    api_ = std::move(*api);
    for (auto [token, user] : {std::pair{"reader-token", "alice"}, {"other-token", "bob"}}) {
      api_->AddRoute(
          ReviewMentioning(kTokenReviews, token),
          {ScriptedResponse::Json(
              201, nlohmann::json(
                       {{"status", {{"authenticated", true}, {"user", {{"username", user}}}}}})
                       .dump())});
    }
    api_->AddRoute(Route::Exact("POST", kTokenReviews),
                   {ScriptedResponse::Json(201, R"({"status":{"authenticated":false}})")});
    api_->AddRoute(ReviewMentioning(kAccessReviews, "\"alice\""),
                   {ScriptedResponse::Json(201, R"({"status":{"allowed":true}})")});
    api_->AddRoute(Route::Exact("POST", kAccessReviews),
                   {ScriptedResponse::Json(201, R"({"status":{"allowed":false}})")});
    auto cert = ServingCertificate::SelfSigned({"localhost"});
    ASSERT_TRUE(cert.ok());
    cert_ = *cert;
    dir_.Write("tls.crt", cert_.cert_pem);
    dir_.Write("tls.key", cert_.key_pem);
  }

  ManagerOptions Options(bool secure) {
    ManagerOptions options;
    options.metrics_bind_address = "127.0.0.1:0";
    options.health_probe_bind_address = "0";
    options.metrics_secure = secure;
    if (secure) options.metrics_cert_dir = dir_.path().string();
    options.connect_backoff.initial = std::chrono::milliseconds(50);
    return options;
  }

  RestConfig ApiConfig() {
    RestConfig config;
    config.server = api_->Url();
    return config;
  }

  Result<HttpResponse> Scrape(const std::string& scheme, int port, const std::string& token) {
    RestConfig config;
    config.server = scheme + "://127.0.0.1:" + std::to_string(port);
    config.ca_pem = cert_.cert_pem;
    config.request_timeout = std::chrono::seconds(5);
    auto transport = HttpTransport::Create(config);
    if (!transport.ok()) return transport.status();
    HttpRequest request;
    request.path = "/metrics";
    if (!token.empty()) request.headers.emplace_back("Authorization", "Bearer " + token);
    return (*transport)->Send(request);
  }

  // An HTTPS request to /metrics without a token, verified against `ca_pem`.
  Result<HttpResponse> Handshake(int port, const std::string& ca_pem) {
    RestConfig config;
    config.server = "https://127.0.0.1:" + std::to_string(port);
    config.ca_pem = ca_pem;
    config.request_timeout = std::chrono::seconds(5);
    auto transport = HttpTransport::Create(config);
    if (!transport.ok()) return transport.status();
    HttpRequest request;
    request.path = "/metrics";
    return (*transport)->Send(request);
  }

  std::unique_ptr<ScriptedHttpServer> api_;
  ServingCertificate cert_;
  dra::testing::TempDir dir_;
};

constexpr const char* kExtra =
    "# HELP extra_series Pre-rendered\n# TYPE extra_series gauge\nextra_series 7\n";

void AddExtra(Manager& manager) {
  auto text = std::make_shared<const std::string>(kExtra);
  manager.AddExpositionSource("extra", [text] { return text; });
}

TEST_F(ManagerSecureMetricsTest, ServesMetricsOverHttpsOnlyToAuthorizedCallers) {
  Manager manager(ApiConfig(), Options(true));
  AddExtra(manager);
  ASSERT_TRUE(manager.Start().ok());
  int port = manager.metrics_port();
  ASSERT_GT(port, 0);

  auto anonymous = Scrape("https", port, "");
  ASSERT_TRUE(anonymous.ok()) << anonymous.status().ToString();
  EXPECT_EQ(anonymous->status, 401);
  EXPECT_EQ(Scrape("https", port, "forged-token")->status, 401);
  EXPECT_EQ(Scrape("https", port, "other-token")->status, 403);
  auto reader = Scrape("https", port, "reader-token");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(reader->status, 200);
  EXPECT_NE(reader->body.find("# TYPE"), std::string::npos);
  EXPECT_TRUE(reader->body.ends_with(kExtra)) << reader->body;
  EXPECT_LT(reader->body.find("# TYPE"), reader->body.find(kExtra));
  EXPECT_EQ(reader->Header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_FALSE(Scrape("http", port, "reader-token").ok());
  ASSERT_TRUE(manager.Stop().ok());
}

TEST_F(ManagerSecureMetricsTest, WithoutACertDirAGeneratedCertificateIsServed) {
  ManagerOptions options = Options(true);
  options.metrics_cert_dir.clear();
  Manager manager(ApiConfig(), options);
  ASSERT_TRUE(manager.Start().ok());
  // Our certificate is not the one served: verification fails...
  EXPECT_FALSE(Scrape("https", manager.metrics_port(), "reader-token").ok());
  // ...and without verification the server answers over TLS.
  RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(manager.metrics_port());
  config.insecure_skip_tls_verify = true;
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok());
  HttpRequest request;
  request.path = "/metrics";
  auto reply = (*transport)->Send(request);
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 401);
}

// Whether the PEM certificate is valid for `host` (its SANs).
bool Names(const std::string& cert_pem, const std::string& host) {
  BIO* bio = BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (cert == nullptr) return false;
  bool named = X509_check_host(cert, host.c_str(), host.size(), 0, nullptr) == 1;
  X509_free(cert);
  return named;
}

// Without a cert dir the certificate still names the Service as Prometheus
// and Alertmanager dial it, so a client given it as CA can verify it.
TEST_F(ManagerSecureMetricsTest, TheGeneratedCertificateNamesTheService) {
  ManagerOptions options = Options(true);
  options.metrics_cert_dir.clear();
  options.service_name = "dra-controller";
  options.service_namespace = "dra-system";
  Manager manager(ApiConfig(), options);
  auto tls = manager.ServingTls();
  ASSERT_TRUE(tls.ok()) << tls.status().ToString();
  for (const char* name :
       {"localhost", "dra-controller", "dra-controller.dra-system", "dra-controller.dra-system.svc",
        "dra-controller.dra-system.svc.cluster.local"}) {
    EXPECT_TRUE(Names(tls->cert_pem, name)) << name;
  }
  EXPECT_FALSE(Names(tls->cert_pem, "dra-controller.other.svc"));
}

TEST_F(ManagerSecureMetricsTest, TheServiceNamespaceDefaultsToTheConfigurations) {
  ManagerOptions options = Options(true);
  options.metrics_cert_dir.clear();
  options.service_name = "gpu-health";
  RestConfig config = ApiConfig();
  config.namespace_name = "gpu-system";
  Manager manager(config, options);
  auto tls = manager.ServingTls();
  ASSERT_TRUE(tls.ok()) << tls.status().ToString();
  EXPECT_TRUE(Names(tls->cert_pem, "gpu-health.gpu-system.svc"));
}

// /metrics and the webhook present one certificate: a client that trusts
// what one server presents trusts the other.
TEST_F(ManagerSecureMetricsTest, EveryServerPresentsTheSameGeneratedCertificate) {
  ManagerOptions options = Options(true);
  options.metrics_cert_dir.clear();
  Manager manager(ApiConfig(), options);
  auto first = manager.ServingTls();
  auto second = manager.ServingTls();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->cert_pem, second->cert_pem);
  ASSERT_TRUE(manager.Start().ok());
  auto reply = Handshake(manager.metrics_port(), first->cert_pem);
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 401);
  ASSERT_TRUE(manager.Stop().ok());
}

// The kubelet updates a mounted Secret by writing a new timestamped
// directory and renaming the ..data link onto it; tls.crt and tls.key are
// links through ..data. A renewal (cert-manager's) reaches new handshakes
// without a restart.
void MountSecret(const std::filesystem::path& dir, const std::string& version,
                 const ServingCertificate& cert) {
  namespace fs = std::filesystem;
  fs::create_directories(dir / version);
  dra::testing::TempDir writer;
  fs::copy_file(writer.Write("tls.crt", cert.cert_pem), dir / version / "tls.crt");
  fs::copy_file(writer.Write("tls.key", cert.key_pem), dir / version / "tls.key");
  fs::create_directory_symlink(version, dir / "..data_tmp");
  fs::rename(dir / "..data_tmp", dir / "..data");
  for (const char* file : {"tls.crt", "tls.key"}) {
    if (!fs::is_symlink(dir / file)) fs::create_symlink(fs::path("..data") / file, dir / file);
  }
}

TEST_F(ManagerSecureMetricsTest, ARenewedSecretIsServedWithoutARestart) {
  dra::testing::TempDir mount;
  MountSecret(mount.path(), "..2026_01_01_00_00_00.1", cert_);
  ManagerOptions options = Options(true);
  options.metrics_cert_dir = mount.path().string();
  Manager manager(ApiConfig(), options);
  ASSERT_TRUE(manager.Start().ok());
  int port = manager.metrics_port();
  ASSERT_EQ(Handshake(port, cert_.cert_pem)->status, 401);

  auto renewed = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(renewed.ok());
  MountSecret(mount.path(), "..2026_02_01_00_00_00.2", *renewed);
  auto served = dra::testing::WaitFor("the renewed certificate",
                                      dra::testing::TestTime::Scaled(std::chrono::seconds(5)), [&] {
                                        auto reply = Handshake(port, renewed->cert_pem);
                                        return reply.ok() && reply->status == 401;
                                      });
  EXPECT_TRUE(served.ok()) << served.ToString();
  EXPECT_FALSE(Handshake(port, cert_.cert_pem).ok()) << "the old certificate is still served";
  ASSERT_TRUE(manager.Stop().ok());
}

TEST_F(ManagerSecureMetricsTest, AMissingCertDirFailsTheStart) {
  ManagerOptions options = Options(true);
  options.metrics_cert_dir = dir_.path().string() + "/absent";
  Manager manager(ApiConfig(), options);
  Status started = manager.Start();
  EXPECT_FALSE(started.ok());
  EXPECT_NE(started.message().find("tls.crt"), std::string::npos) << started.ToString();
}

TEST_F(ManagerSecureMetricsTest, InsecureMetricsStayPlainAndOpen) {
  Manager manager(ApiConfig(), Options(false));
  AddExtra(manager);
  ASSERT_TRUE(manager.Start().ok());
  auto reply = Scrape("http", manager.metrics_port(), "");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_TRUE(reply->body.ends_with(kExtra)) << reply->body;
  for (const auto& request : api_->Requests()) EXPECT_NE(request.Path(), kTokenReviews);
}

}  // namespace
}  // namespace kube
