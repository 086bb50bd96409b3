#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/auth/RequestAuthorizer.h"
#include "src/base/FakeClock.h"
#include "src/http/HttpTransport.h"
#include "tests/support/ScriptedHttpServer.h"

namespace kube {
namespace {

using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using dra::testing::StreamStep;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kTokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews";
constexpr const char* kAccessReviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

std::string Authenticated(const std::string& user) {
  return nlohmann::json({{"kind", "TokenReview"},
                         {"status",
                          {{"authenticated", true},
                           {"user", {{"username", user}, {"uid", "u-1"}, {"groups", {"g1"}}}}}}})
      .dump();
}

std::string NotAuthenticated() {
  return R"({"kind":"TokenReview","status":{"authenticated":false,"error":"invalid bearer token"}})";
}

std::string Access(bool allowed) {
  return nlohmann::json(
             {{"kind", "SubjectAccessReview"},
              {"status", {{"allowed", allowed}, {"reason", allowed ? "bound" : "no binding"}}}})
      .dump();
}

class RequestAuthorizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok());
    api_ = std::move(*server);
  }

  // Answers every TokenReview and SubjectAccessReview with these bodies.
  void Serve(ScriptedResponse token_review, ScriptedResponse access_review) {
    api_->AddRoute(Route::Exact("POST", kTokenReviews), {std::move(token_review)});
    api_->AddRoute(Route::Exact("POST", kAccessReviews), {std::move(access_review)});
  }

  std::unique_ptr<RequestAuthorizer> Authorizer(milliseconds timeout = milliseconds(5000),
                                                RequestAuthorizerOptions options = {}) {
    RestConfig config;
    config.server = api_->Url();
    config.request_timeout = timeout;
    auto transport = HttpTransport::Create(config);
    EXPECT_TRUE(transport.ok());
    RestClientOptions client_options;
    client_options.max_retries = 0;
    auto client = std::make_shared<RestClient>(
        std::shared_ptr<HttpTransport>(std::move(*transport)), client_options);
    options.clock = clock_;
    return std::make_unique<RequestAuthorizer>(std::make_shared<TokenReviewer>(client),
                                               std::make_shared<AccessReviewer>(client), options);
  }

  std::size_t Calls(const std::string& path) const {
    std::size_t count = 0;
    for (const auto& request : api_->Requests()) count += request.Path() == path ? 1 : 0;
    return count;
  }

  std::unique_ptr<ScriptedHttpServer> api_;
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
};

TEST_F(RequestAuthorizerTest, NoBearerTokenIsUnauthorizedWithoutAskingTheApiServer) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer();
  for (const std::string header : {"", "Basic YWxpY2U6cHc=", "Bearer ", "Bearer a b"}) {
    Status verdict = authorizer->Authorize("GET", "/metrics", header);
    EXPECT_EQ(verdict.code(), StatusCode::kUnauthorized) << header;
    EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 401);
  }
  EXPECT_TRUE(api_->Requests().empty());
}

TEST_F(RequestAuthorizerTest, RejectedTokenIsUnauthorized) {
  Serve(ScriptedResponse::Json(201, NotAuthenticated()), ScriptedResponse::Json(201, Access(true)));
  Status verdict = Authorizer()->Authorize("GET", "/metrics", "Bearer forged");
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 401);
  EXPECT_NE(verdict.message().find("invalid bearer token"), std::string::npos);
  EXPECT_EQ(Calls(kAccessReviews), 0u);
  auto review = nlohmann::json::parse(api_->Requests().at(0).body);
  EXPECT_EQ(review["spec"]["token"], "forged");
}

TEST_F(RequestAuthorizerTest, UserWithoutPermissionIsForbidden) {
  Serve(ScriptedResponse::Json(201, Authenticated("bob")),
        ScriptedResponse::Json(201, Access(false)));
  Status verdict = Authorizer()->Authorize("GET", "/metrics", "Bearer bobs-token");
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 403);
  EXPECT_NE(verdict.message().find("bob"), std::string::npos);
  EXPECT_NE(verdict.message().find("no binding"), std::string::npos);
}

TEST_F(RequestAuthorizerTest, AllowedUserPassesAndTheReviewNamesUserVerbAndPath) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::Json(201, Access(true)));
  Status verdict = Authorizer()->Authorize("GET", "/metrics", "bearer alices-token");
  EXPECT_TRUE(verdict.ok()) << verdict.ToString();
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 200);
  ASSERT_EQ(Calls(kAccessReviews), 1u);
  auto review = nlohmann::json::parse(api_->Requests().at(1).body);
  EXPECT_EQ(review["kind"], "SubjectAccessReview");
  EXPECT_EQ(review["spec"]["user"], "alice");
  EXPECT_EQ(review["spec"]["uid"], "u-1");
  EXPECT_EQ(review["spec"]["groups"], nlohmann::json({"g1"}));
  EXPECT_EQ(review["spec"]["nonResourceAttributes"],
            nlohmann::json({{"path", "/metrics"}, {"verb", "get"}}));
  EXPECT_FALSE(review["spec"].contains("resourceAttributes"));
}

// controller-runtime's filter authorizes HEAD as "get": a scraper's HEAD
// needs no RBAC rule for a verb "head" that no role grants.
TEST_F(RequestAuthorizerTest, HeadIsAuthorizedAsGet) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer();
  EXPECT_TRUE(authorizer->Authorize("HEAD", "/metrics", "Bearer t").ok());
  ASSERT_EQ(Calls(kAccessReviews), 1u);
  auto review = nlohmann::json::parse(api_->Requests().at(1).body);
  EXPECT_EQ(review["spec"]["nonResourceAttributes"]["verb"], "get");
  // ...and shares GET's cached decision.
  EXPECT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer t").ok());
  EXPECT_EQ(Calls(kAccessReviews), 1u);
}

ResourceAttributes CreateDeviceHealths() {
  return {"create", "dra-controller.dev", "devicehealths", "", ""};
}

TEST_F(RequestAuthorizerTest, ResourceReviewNamesVerbGroupAndResource) {
  Serve(ScriptedResponse::Json(201, Authenticated("alertmanager")),
        ScriptedResponse::Json(201, Access(true)));
  Status verdict = Authorizer()->AuthorizeResource("Bearer am", CreateDeviceHealths());
  EXPECT_TRUE(verdict.ok()) << verdict.ToString();
  ASSERT_EQ(Calls(kAccessReviews), 1u);
  auto review = nlohmann::json::parse(api_->Requests().at(1).body);
  EXPECT_EQ(review["spec"]["user"], "alertmanager");
  EXPECT_EQ(review["spec"]["resourceAttributes"], nlohmann::json({{"verb", "create"},
                                                                  {"group", "dra-controller.dev"},
                                                                  {"resource", "devicehealths"}}));
  EXPECT_FALSE(review["spec"].contains("nonResourceAttributes"));
}

TEST_F(RequestAuthorizerTest, ResourceReviewDeniedIsForbiddenAndNamesTheRight) {
  Serve(ScriptedResponse::Json(201, Authenticated("bob")),
        ScriptedResponse::Json(201, Access(false)));
  auto authorizer = Authorizer();
  EXPECT_EQ(authorizer->AuthorizeResource("", CreateDeviceHealths()).code(),
            StatusCode::kUnauthorized);
  Status verdict = authorizer->AuthorizeResource("Bearer b", CreateDeviceHealths());
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 403);
  EXPECT_NE(verdict.message().find("create devicehealths.dra-controller.dev"), std::string::npos)
      << verdict.message();
}

// A resource decision is cached apart from a non-resource one of the same
// verb: allowing GET /metrics must not allow creating DeviceHealths.
TEST_F(RequestAuthorizerTest, ResourceAndNonResourceDecisionsAreCachedApart) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer();
  EXPECT_TRUE(authorizer->Authorize("CREATE", "devicehealths", "Bearer t").ok());
  EXPECT_TRUE(authorizer->AuthorizeResource("Bearer t", CreateDeviceHealths()).ok());
  EXPECT_EQ(Calls(kAccessReviews), 2u);
  EXPECT_TRUE(authorizer->AuthorizeResource("Bearer t", CreateDeviceHealths()).ok());
  EXPECT_EQ(Calls(kAccessReviews), 2u);
}

// A flood of unknown tokens costs the API server at most the review rate;
// beyond it callers get 429 at once, and the budget refills with time.
TEST_F(RequestAuthorizerTest, ReviewsBeyondTheRateAreTooManyRequests) {
  Serve(ScriptedResponse::Json(201, NotAuthenticated()), ScriptedResponse::Json(201, Access(true)));
  RequestAuthorizerOptions options;
  options.reviews_per_second = 2;
  options.review_burst = 3;
  auto authorizer = Authorizer(milliseconds(5000), options);
  int too_many = 0;
  for (int i = 0; i < 10; ++i) {
    Status verdict = authorizer->Authorize("GET", "/metrics", "Bearer t" + std::to_string(i));
    if (RequestAuthorizer::HttpStatusFor(verdict) == 429) ++too_many;
  }
  EXPECT_EQ(Calls(kTokenReviews), 3u);
  EXPECT_EQ(too_many, 7);
  clock_->Step(seconds(1));
  EXPECT_EQ(authorizer->Authorize("GET", "/metrics", "Bearer later").code(),
            StatusCode::kUnauthorized);
  EXPECT_EQ(Calls(kTokenReviews), 4u);
}

// A scraper authenticated before keeps its own budget: a flood of unknown
// tokens that exhausts theirs does not turn its next review (its cached
// answer expired) into 429.
TEST_F(RequestAuthorizerTest, FloodOfUnknownTokensDoesNotLockOutKnownScrapers) {
  api_->AddRoute(Route::Where("POST",
                              [](const dra::testing::RecordedRequest& r) {
                                return r.Path() == kTokenReviews &&
                                       r.body.find("\"token\":\"scraper\"") != std::string::npos;
                              }),
                 {ScriptedResponse::Json(201, Authenticated("prometheus"))});
  Serve(ScriptedResponse::Json(201, NotAuthenticated()), ScriptedResponse::Json(201, Access(true)));
  RequestAuthorizerOptions options;
  options.reviews_per_second = 1;
  options.review_burst = 2;
  auto authorizer = Authorizer(milliseconds(5000), options);
  ASSERT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer scraper").ok());
  int too_many = 0;
  for (int i = 0; i < 20; ++i) {
    Status verdict = authorizer->Authorize("GET", "/metrics", "Bearer bad" + std::to_string(i));
    too_many += verdict.code() == StatusCode::kTooManyRequests ? 1 : 0;
  }
  EXPECT_EQ(too_many, 19);            // the scraper took the first of the two
  clock_->Step(milliseconds(10500));  // the scraper's answers expired; 10 more unknown tokens
  for (int i = 0; i < 30; ++i)
    (void)authorizer->Authorize("GET", "/metrics", "Bearer x" + std::to_string(i));
  EXPECT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer scraper").ok());
}

TEST_F(RequestAuthorizerTest, AnswersAreCachedBrieflyTwoCallsPerTokenAndPeriod) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer();
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer t").ok());
  EXPECT_EQ(api_->Requests().size(), 2u);
  clock_->Step(seconds(9));
  ASSERT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer t").ok());
  EXPECT_EQ(api_->Requests().size(), 2u);
  clock_->Step(seconds(2));  // past the 10 s of positive answers
  ASSERT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer t").ok());
  EXPECT_EQ(api_->Requests().size(), 4u);
  // Another token is another question.
  ASSERT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer other").ok());
  EXPECT_EQ(Calls(kTokenReviews), 3u);
}

TEST_F(RequestAuthorizerTest, NegativeAnswersAreCachedForLessTime) {
  Serve(ScriptedResponse::Json(201, NotAuthenticated()), ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer();
  EXPECT_EQ(authorizer->Authorize("GET", "/metrics", "Bearer bad").code(),
            StatusCode::kUnauthorized);
  EXPECT_EQ(authorizer->Authorize("GET", "/metrics", "Bearer bad").code(),
            StatusCode::kUnauthorized);
  EXPECT_EQ(Calls(kTokenReviews), 1u);
  clock_->Step(seconds(6));
  EXPECT_EQ(authorizer->Authorize("GET", "/metrics", "Bearer bad").code(),
            StatusCode::kUnauthorized);
  EXPECT_EQ(Calls(kTokenReviews), 2u);
}

TEST_F(RequestAuthorizerTest, DeniedDecisionsExpireSoonerThanAllowedOnes) {
  api_->AddRoute(Route::Exact("POST", kTokenReviews),
                 {ScriptedResponse::Json(201, Authenticated("bob"))});
  auto access = api_->AddRoute(Route::Exact("POST", kAccessReviews).Once(),
                               {ScriptedResponse::Json(201, Access(false))});
  auto authorizer = Authorizer();
  EXPECT_EQ(authorizer->Authorize("GET", "/metrics", "Bearer b").code(), StatusCode::kForbidden);
  EXPECT_EQ(authorizer->Authorize("GET", "/metrics", "Bearer b").code(), StatusCode::kForbidden);
  EXPECT_EQ(Calls(kAccessReviews), 1u);
  ASSERT_TRUE(api_->Enqueue(access, ScriptedResponse::Json(201, Access(true))).ok());
  clock_->Step(seconds(6));  // the denial is gone; the user was bound meanwhile
  EXPECT_TRUE(authorizer->Authorize("GET", "/metrics", "Bearer b").ok());
  EXPECT_EQ(Calls(kAccessReviews), 2u);
}

TEST_F(RequestAuthorizerTest, ApiFailuresAreServerErrorsAndNotCached) {
  // The API server refusing *our* review (no RBAC) must not read as the caller's 403.
  Serve(ScriptedResponse::KubeStatus(403, "Forbidden", "cannot create tokenreviews"),
        ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer();
  Status verdict = authorizer->Authorize("GET", "/metrics", "Bearer t");
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 500) << verdict.ToString();
  EXPECT_NE(verdict.message().find("cannot create tokenreviews"), std::string::npos);
  (void)authorizer->Authorize("GET", "/metrics", "Bearer t");
  EXPECT_EQ(Calls(kTokenReviews), 2u);
}

TEST_F(RequestAuthorizerTest, FailedAccessReviewIsAServerError) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::KubeStatus(500, "InternalError", "etcd is down"));
  Status verdict = Authorizer()->Authorize("GET", "/metrics", "Bearer t");
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 500) << verdict.ToString();
}

TEST_F(RequestAuthorizerTest, GarbageAnswerIsAServerError) {
  Serve(ScriptedResponse::Json(201, "{not json"), ScriptedResponse::Json(201, Access(true)));
  Status verdict = Authorizer()->Authorize("GET", "/metrics", "Bearer t");
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 500) << verdict.ToString();
}

TEST_F(RequestAuthorizerTest, StalledApiServerEndsAtTheDeadline) {
  Serve(ScriptedResponse::Raw({StreamStep::Pause(seconds(30))}),
        ScriptedResponse::Json(201, Access(true)));
  auto authorizer = Authorizer(milliseconds(300));
  auto start = std::chrono::steady_clock::now();
  Status verdict = authorizer->Authorize("GET", "/metrics", "Bearer t");
  EXPECT_EQ(RequestAuthorizer::HttpStatusFor(verdict), 500) << verdict.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(5));
}

}  // namespace
}  // namespace kube
