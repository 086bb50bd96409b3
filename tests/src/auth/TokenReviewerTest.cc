#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/auth/TokenReviewer.h"
#include "src/http/HttpTransport.h"
#include "tests/support/ScriptedHttpServer.h"

namespace kube {
namespace {

using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;

constexpr const char* kTokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews";

std::string Answer(const nlohmann::json& audiences) {
  nlohmann::json status = {{"authenticated", true}, {"user", {{"username", "prometheus"}}}};
  if (!audiences.is_null()) status["audiences"] = audiences;
  return nlohmann::json({{"kind", "TokenReview"}, {"status", status}}).dump();
}

class TokenReviewerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok());
    api_ = std::move(*server);
  }

  TokenReviewer Reviewer(std::vector<std::string> audiences) {
    RestConfig config;
    config.server = api_->Url();
    auto transport = HttpTransport::Create(config);
    EXPECT_TRUE(transport.ok());
    RestClientOptions options;
    options.max_retries = 0;
    return TokenReviewer(std::make_shared<RestClient>(
                             std::shared_ptr<HttpTransport>(std::move(*transport)), options),
                         std::move(audiences));
  }

  std::unique_ptr<ScriptedHttpServer> api_;
};

TEST_F(TokenReviewerTest, WithoutAudiencesTheServersOwnApply) {
  api_->AddRoute(Route::Exact("POST", kTokenReviews),
                 {ScriptedResponse::Json(201, Answer(nullptr))});
  EXPECT_TRUE(Reviewer({}).Review("t").ok());
  auto review = nlohmann::json::parse(api_->Requests().at(0).body);
  EXPECT_FALSE(review["spec"].contains("audiences"));
}

TEST_F(TokenReviewerTest, AudiencesAreAskedForAndTheAnswerMustConfirmOne) {
  api_->AddRoute(Route::Exact("POST", kTokenReviews).Once(),
                 {ScriptedResponse::Json(201, Answer({"dra-controller"}))});
  api_->AddRoute(Route::Exact("POST", kTokenReviews).Once(),
                 {ScriptedResponse::Json(201, Answer({"https://kubernetes.default.svc"}))});
  api_->AddRoute(Route::Exact("POST", kTokenReviews),
                 {ScriptedResponse::Json(201, Answer(nullptr))});
  auto reviewer = Reviewer({"dra-controller", "other"});
  EXPECT_TRUE(reviewer.Review("t").ok());
  auto review = nlohmann::json::parse(api_->Requests().at(0).body);
  EXPECT_EQ(review["spec"]["audiences"], nlohmann::json({"dra-controller", "other"}));
  EXPECT_EQ(reviewer.Review("t").status().code(), StatusCode::kUnauthorized);
  EXPECT_EQ(reviewer.Review("t").status().code(), StatusCode::kUnauthorized);
}

}  // namespace
}  // namespace kube
