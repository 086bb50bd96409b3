#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/auth/ServingCertificate.h"
#include "src/http/HttpTransport.h"
#include "src/manager/Manager.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"

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
