#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "src/auth/RequestAuthorizer.h"
#include "src/base/Base64.h"
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

// A JWT-shaped token: base64url header and payload claiming `subject` of
// `issuer`, and a "signature" that says whether the fake API server takes it.
std::string Jwt(const std::string& subject, const std::string& nonce, bool valid,
                const std::string& issuer = "https://kubernetes.default.svc") {
  auto url = [](std::string text) {
    text = Base64Encode(text);
    std::replace(text.begin(), text.end(), '+', '-');
    std::replace(text.begin(), text.end(), '/', '_');
    text.erase(std::remove(text.begin(), text.end(), '='), text.end());
    return text;
  };
  nlohmann::json claims = {{"iss", issuer}, {"sub", subject}, {"jti", nonce}};
  return url(R"({"alg":"RS256"})") + "." + url(claims.dump()) + "." +
         (valid ? "valid-signature" : "forged-signature");
}

class RequestAuthorizerFloodTest : public RequestAuthorizerTest {
 protected:
  // Tokens with a valid signature belong to Prometheus; everything else is rejected.
  void SetUp() override {
    RequestAuthorizerTest::SetUp();
    api_->AddRoute(Route::Where("POST",
                                [](const dra::testing::RecordedRequest& r) {
                                  return r.Path() == kTokenReviews &&
                                         r.body.find("valid-signature") != std::string::npos;
                                }),
                   {ScriptedResponse::Json(201, Authenticated(kPrometheus))});
    Serve(ScriptedResponse::Json(201, NotAuthenticated()),
          ScriptedResponse::Json(201, Access(true)));
  }

  // A flood from `peer` until its budgets are spent: every later made-up
  // token from it gets 429.
  void Flood(RequestAuthorizer& authorizer, const std::string& peer, int count = 200) {
    for (int i = 0; i < count; ++i) {
      (void)authorizer.Authorize("GET", "/metrics", "Bearer junk-" + peer + std::to_string(i),
                                 peer);
    }
    ASSERT_EQ(authorizer.Authorize("GET", "/metrics", "Bearer junk-last", peer).code(),
              StatusCode::kTooManyRequests);
  }

  static constexpr const char* kPrometheus = "system:serviceaccount:monitoring:prometheus";
};

// One client's flood of made-up tokens spends its own budget, not everyone's:
// a token never seen before, from another address, is reviewed and let in.
TEST_F(RequestAuthorizerFloodTest, FloodFromOneAddressLeavesReviewsForAnother) {
  auto authorizer = Authorizer();
  Flood(*authorizer, "10.0.0.66");
  Flood(*authorizer, "10.0.0.67");
  Status verdict = authorizer->Authorize("GET", "/metrics",
                                         "Bearer " + Jwt(kPrometheus, "first", true), "10.0.0.9");
  EXPECT_TRUE(verdict.ok()) << verdict.ToString();
}

// The reserved share: once an identity was allowed, its new tokens (a
// rotated projected token, another replica's) get through a flood even
// from the same address.
TEST_F(RequestAuthorizerFloodTest, NewTokensOfAnAllowedIdentityGetThroughAFloodFromTheirAddress) {
  auto authorizer = Authorizer();
  const std::string prometheus = "10.0.0.9";
  ASSERT_TRUE(
      authorizer->Authorize("GET", "/metrics", "Bearer " + Jwt(kPrometheus, "0", true), prometheus)
          .ok());
  Flood(*authorizer, prometheus);
  for (int i = 1; i <= 16; ++i) {
    Status verdict = authorizer->Authorize(
        "GET", "/metrics", "Bearer " + Jwt(kPrometheus, std::to_string(i), true), prometheus);
    EXPECT_TRUE(verdict.ok()) << i << ": " << verdict.ToString();
  }
}

// Claiming an allowed identity in a forged token costs the forger the
// reserved share (its later claims draw from its own spent budget), and
// the identity's share is left for its real tokens.
TEST_F(RequestAuthorizerFloodTest, ForgedClaimsDoNotSpendTheReservedShare) {
  auto authorizer = Authorizer();
  const std::string prometheus = "10.0.0.9";
  const std::string forger = "10.0.0.66";
  ASSERT_TRUE(
      authorizer->Authorize("GET", "/metrics", "Bearer " + Jwt(kPrometheus, "0", true), prometheus)
          .ok());
  int reviewed_before = static_cast<int>(Calls(kTokenReviews));
  int too_many = 0;
  for (int i = 0; i < 100; ++i) {
    Status verdict = authorizer->Authorize(
        "GET", "/metrics", "Bearer " + Jwt(kPrometheus, "f" + std::to_string(i), false), forger);
    too_many += verdict.code() == StatusCode::kTooManyRequests ? 1 : 0;
  }
  // One forged review from the reserved share, then the forger's own 10.
  EXPECT_EQ(static_cast<int>(Calls(kTokenReviews)) - reviewed_before, 11);
  EXPECT_EQ(too_many, 89);
  for (int i = 1; i <= 16; ++i) {
    Status verdict = authorizer->Authorize(
        "GET", "/metrics", "Bearer " + Jwt(kPrometheus, std::to_string(i), true), prometheus);
    EXPECT_TRUE(verdict.ok()) << i << ": " << verdict.ToString();
  }
}

// Rejected tokens have a cache of their own: a flood of them cannot push
// out a valid token's answer and force its re-review.
TEST_F(RequestAuthorizerFloodTest, RejectedTokensDoNotPushOutAuthenticatedOnes) {
  RequestAuthorizerOptions options;
  options.max_cache_entries = 4;
  options.peer_review_burst = 1000;
  options.review_burst = 1000;
  auto authorizer = Authorizer(milliseconds(5000), options);
  std::string token = "Bearer " + Jwt(kPrometheus, "0", true);
  ASSERT_TRUE(authorizer->Authorize("GET", "/metrics", token).ok());
  // Its answer now expires before any new rejection would.
  clock_->Step(seconds(6));
  std::size_t reviews = Calls(kTokenReviews);
  for (int i = 0; i < 20; ++i)
    (void)authorizer->Authorize("GET", "/metrics", "Bearer j" + std::to_string(i));
  ASSERT_EQ(Calls(kTokenReviews), reviews + 20);
  EXPECT_TRUE(authorizer->Authorize("GET", "/metrics", token).ok());
  EXPECT_EQ(Calls(kTokenReviews), reviews + 20);
}

// A path (or token) that is not UTF-8 is outside text, never an exception.
TEST_F(RequestAuthorizerTest, NonUtf8PathIsAQuestionNotAnException) {
  Serve(ScriptedResponse::Json(201, Authenticated("alice")),
        ScriptedResponse::Json(201, Access(false)));
  auto authorizer = Authorizer();
  Status verdict;
  EXPECT_NO_THROW(verdict = authorizer->Authorize("GET", "/metrics/\xff\xfe", "Bearer t"));
  EXPECT_EQ(verdict.code(), StatusCode::kForbidden) << verdict.ToString();
  EXPECT_NO_THROW(verdict = authorizer->Authorize("GET", "/metrics", "Bearer t\xff"));
  EXPECT_EQ(verdict.code(), StatusCode::kUnauthorized) << verdict.ToString();
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
