// Secure metrics against the real kube-apiserver: service-account tokens are
// authenticated with TokenReviews and their users authorized for GET
// /metrics with SubjectAccessReviews, and the HTTPS endpoint answers
// 401/403/200 accordingly.
#include <gtest/gtest.h>

#include "src/auth/RequestAuthorizer.h"
#include "src/auth/ServingCertificate.h"
#include "src/auth/TokenClaims.h"
#include "src/http/EndpointServer.h"
#include "src/http/HttpTransport.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

class SecureMetricsTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto ns = cluster_->CreateTestNamespace("secure-metrics");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    role_ = "secure-metrics-reader-" + ns_;
    for (const char* account : {"reader", "stranger"}) {
      auto created = cluster_->Kubectl({"create", "serviceaccount", account, "-n", ns_});
      ASSERT_TRUE(created.ok()) << created.status().ToString();
    }
    auto role = cluster_->Kubectl(
        {"create", "clusterrole", role_, "--verb=get", "--non-resource-url=/metrics"});
    ASSERT_TRUE(role.ok()) << role.status().ToString();
    ASSERT_TRUE(Bind().ok());

    auto cert = kube::ServingCertificate::SelfSigned({"localhost"});
    ASSERT_TRUE(cert.ok());
    cert_ = *cert;
    authorizer_ =
        std::make_shared<kube::RequestAuthorizer>(std::make_shared<kube::TokenReviewer>(client_),
                                                  std::make_shared<kube::AccessReviewer>(client_));
    auto authorizer = authorizer_;
    auto guarded = [authorizer](const kube::EndpointServer::Request& request) {
      kube::Status verdict =
          authorizer->Authorize(request.method, request.path, request.authorization);
      if (!verdict.ok()) {
        return kube::EndpointServer::Reply{kube::RequestAuthorizer::HttpStatusFor(verdict),
                                           verdict.message()};
      }
      return kube::EndpointServer::Reply{200, "# TYPE up gauge\nup 1\n"};
    };
    auto server = kube::EndpointServer::Start(
        "127.0.0.1:0", {{"/metrics", guarded}},
        kube::EndpointServer::TlsOptions{cert_.cert_pem, cert_.key_pem});
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
  }

  void TearDown() override {
    server_.reset();
    if (!cluster_ || ns_.empty()) return;
    (void)cluster_->Kubectl({"delete", "clusterrolebinding", role_, "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "clusterrole", role_, "--ignore-not-found"});
    cluster_->DeleteTestNamespace(ns_);
  }

  kube::Status Bind() {
    auto bound = cluster_->Kubectl({"create", "clusterrolebinding", role_, "--clusterrole", role_,
                                    "--serviceaccount", ns_ + ":reader"});
    return bound.ok() ? kube::Status::Ok() : bound.status();
  }

  std::string Token(const std::string& account, const std::string& audience = "") {
    std::vector<std::string> args{"create", "token", account, "-n", ns_};
    if (!audience.empty()) args.push_back("--audience=" + audience);
    auto token = cluster_->Kubectl(args);
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    if (!token.ok()) return "";
    return token->out.substr(0, token->out.find_last_not_of("\n") + 1);
  }

  // The HTTP status of GET (or `method`) /metrics over HTTPS; 0 when the
  // request failed.
  int Scrape(const std::string& authorization, const std::string& method = "GET") {
    kube::RestConfig config;
    config.server = "https://127.0.0.1:" + std::to_string(server_->port());
    config.ca_pem = cert_.cert_pem;
    config.request_timeout = 10s;
    auto transport = kube::HttpTransport::Create(config);
    if (!transport.ok()) return 0;
    kube::HttpRequest request;
    request.method = method;
    request.path = "/metrics";
    if (!authorization.empty()) request.headers.emplace_back("Authorization", authorization);
    auto reply = (*transport)->Send(request);
    last_body_ = reply.ok() ? reply->body : reply.status().ToString();
    return reply.ok() ? reply->status : 0;
  }

  std::string ns_;
  std::string role_;
  kube::ServingCertificate cert_;
  std::shared_ptr<kube::RequestAuthorizer> authorizer_;
  std::unique_ptr<kube::EndpointServer> server_;
  std::string last_body_;
};

TEST_F(SecureMetricsTest, TokenReviewNamesTheServiceAccount) {
  kube::TokenReviewer reviewer(client_);
  auto user = reviewer.Review(Token("reader"));
  ASSERT_TRUE(user.ok()) << user.status().ToString();
  EXPECT_EQ(user->username, "system:serviceaccount:" + ns_ + ":reader");
  EXPECT_NE(std::find(user->groups.begin(), user->groups.end(), "system:serviceaccounts"),
            user->groups.end());
  EXPECT_FALSE(user->uid.empty());
  auto forged = reviewer.Review("not-a-token");
  EXPECT_EQ(forged.status().code(), kube::StatusCode::kUnauthorized) << forged.status().ToString();
}

// --token-review-audiences: the API server checks the token against the
// audiences asked for; a token minted for the API server alone is refused.
TEST_F(SecureMetricsTest, TokenReviewWithAudiencesTakesOnlyTokensMintedForThem) {
  kube::TokenReviewer reviewer(client_, {"dra-controller-test"});
  auto minted = reviewer.Review(Token("reader", "dra-controller-test"));
  ASSERT_TRUE(minted.ok()) << minted.status().ToString();
  EXPECT_EQ(minted->username, "system:serviceaccount:" + ns_ + ":reader");
  auto general = reviewer.Review(Token("reader"));
  EXPECT_EQ(general.status().code(), kube::StatusCode::kUnauthorized)
      << general.status().ToString();
}

// The reserved share keys on a token's claimed identity: a real service
// account token names its issuer and the account as its subject.
TEST_F(SecureMetricsTest, ServiceAccountTokensClaimTheirAccount) {
  std::string claim = kube::TokenClaims::ClaimedIdentity(Token("reader"));
  std::string subject = " system:serviceaccount:" + ns_ + ":reader";
  ASSERT_GT(claim.size(), subject.size()) << claim;
  EXPECT_EQ(claim.substr(claim.size() - subject.size()), subject) << claim;
}

TEST_F(SecureMetricsTest, OnlyBoundAccountsReadMetrics) {
  std::string reader = "Bearer " + Token("reader");
  std::string stranger = "Bearer " + Token("stranger");
  EXPECT_EQ(Scrape(""), 401) << last_body_;
  EXPECT_EQ(Scrape("Bearer not-a-token"), 401) << last_body_;
  // RBAC reaches the apiserver's authorizer through an informer: allow a moment.
  auto allowed = WaitFor(
      "the reader to be allowed", 30s, [&] { return Scrape(reader) == 200; },
      [&] { return last_body_; });
  ASSERT_TRUE(allowed.ok()) << allowed.ToString();
  EXPECT_EQ(last_body_, "# TYPE up gauge\nup 1\n");
  EXPECT_EQ(Scrape(stranger), 403) << last_body_;
  EXPECT_NE(last_body_.find("system:serviceaccount:" + ns_ + ":stranger"), std::string::npos);
}

// The role grants "get" only, as the shipped metrics-reader role does: HEAD
// is authorized as get (controller-runtime does the same), not as "head".
TEST_F(SecureMetricsTest, HeadNeedsOnlyTheGetPermission) {
  std::string reader = "Bearer " + Token("reader");
  EXPECT_EQ(Scrape("", "HEAD"), 401) << last_body_;
  auto allowed = WaitFor(
      "the reader's HEAD to be allowed", 30s, [&] { return Scrape(reader, "HEAD") == 200; },
      [&] { return last_body_; });
  ASSERT_TRUE(allowed.ok()) << allowed.ToString();
  EXPECT_EQ(last_body_, "");
  EXPECT_EQ(Scrape("Bearer " + Token("stranger"), "HEAD"), 403) << last_body_;
}

TEST_F(SecureMetricsTest, RevokedAccessEndsWhenTheCachedDecisionExpires) {
  std::string reader = "Bearer " + Token("reader");
  ASSERT_TRUE(WaitFor(
                  "the reader to be allowed", 30s, [&] { return Scrape(reader) == 200; },
                  [&] { return last_body_; })
                  .ok());
  // That "allowed" came from a fresh review: it is reused for 10 s.
  auto allowed_at = std::chrono::steady_clock::now();
  auto revoked = cluster_->Kubectl({"delete", "clusterrolebinding", role_});
  ASSERT_TRUE(revoked.ok()) << revoked.status().ToString();
  auto denied = WaitFor(
      "the reader to be denied", 40s, [&] { return Scrape(reader) == 403; },
      [&] { return last_body_; });
  ASSERT_TRUE(denied.ok()) << denied.ToString();
  auto took = std::chrono::steady_clock::now() - allowed_at;
  EXPECT_GE(took, 9s) << "the cached decision was not reused";
  EXPECT_LT(took, 30s);
}

}  // namespace
}  // namespace dra::testing
