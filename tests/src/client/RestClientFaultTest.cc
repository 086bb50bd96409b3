// RestClient retry and error behaviour against a scripted server.
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <filesystem>

#include "src/base/FakeClock.h"
#include "src/client/RestClient.h"
#include "src/client/RetryOnConflict.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

const std::string kPath = "/api/v1/namespaces/ns/configmaps/cm";

class RestClientFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
  }

  std::unique_ptr<kube::RestClient> Client(std::shared_ptr<kube::TokenSource> token = nullptr,
                                           double qps = 0,
                                           std::shared_ptr<kube::Clock> clock = nullptr) {
    kube::RestConfig config;
    config.server = server_->Url();
    config.token = std::move(token);
    auto transport = kube::HttpTransport::Create(config);
    EXPECT_TRUE(transport.ok()) << transport.status().ToString();
    kube::RestClientOptions options;
    options.sleep = [this](std::chrono::milliseconds d) { sleeps_.push_back(d); };
    options.qps = qps;
    options.burst = 3;
    options.clock = std::move(clock);
    return std::make_unique<kube::RestClient>(
        std::shared_ptr<kube::HttpTransport>(std::move(*transport)), options);
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::vector<std::chrono::milliseconds> sleeps_;
};

TEST_F(RestClientFaultTest, DoOnceReturnsTooManyRequestsWithoutWaiting) {
  server_->AddRoute(Route::Exact("POST", kPath),
                    {ScriptedResponse::KubeStatus(429, "TooManyRequests", "slow down", 2)});
  kube::HttpRequest request;
  request.method = "POST";
  request.path = kPath;
  auto got = Client()->DoOnce(request);
  EXPECT_EQ(got.status().code(), kube::StatusCode::kTooManyRequests) << got.status().ToString();
  EXPECT_TRUE(sleeps_.empty());
  EXPECT_EQ(server_->Requests().size(), 1u);
}

TEST_F(RestClientFaultTest, TooManyRequestsWaitsForRetryAfterThenSucceeds) {
  server_->AddRoute(Route::Exact("GET", kPath),
                    {ScriptedResponse::KubeStatus(429, "TooManyRequests", "slow down", 2),
                     ScriptedResponse::KubeStatus(429, "TooManyRequests", "slow down", 1),
                     ScriptedResponse::Json(200, R"({"kind":"ConfigMap","data":{"x":"1"}})")});
  auto got = Client()->Get(kPath);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)["data"]["x"], "1");
  EXPECT_EQ(sleeps_, (std::vector<std::chrono::milliseconds>{2000ms, 1000ms}));
  EXPECT_EQ(server_->Requests().size(), 3u);
}

TEST_F(RestClientFaultTest, GivesUpAfterTenRetries) {
  server_->AddRoute(Route::Exact("GET", kPath),
                    {ScriptedResponse::KubeStatus(429, "TooManyRequests", "no", 1)});
  auto got = Client()->Get(kPath);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), kube::StatusCode::kTooManyRequests);
  EXPECT_EQ(server_->Requests().size(), 11u) << "one attempt plus ten retries";
  EXPECT_EQ(sleeps_.size(), 10u);
}

TEST_F(RestClientFaultTest, ServerErrorWithoutRetryAfterAndOther4xxAreNotRetried) {
  server_->AddRoute(Route::Exact("GET", kPath),
                    {ScriptedResponse::KubeStatus(500, "InternalError", "boom")});
  server_->AddRoute(Route::Exact("DELETE", kPath),
                    {ScriptedResponse::KubeStatus(403, "Forbidden", "RBAC")});
  auto client = Client();
  EXPECT_EQ(client->Get(kPath).status().code(), kube::StatusCode::kInternal);
  EXPECT_EQ(client->Delete(kPath).code(), kube::StatusCode::kForbidden);
  EXPECT_EQ(server_->Requests().size(), 2u);
  EXPECT_TRUE(sleeps_.empty());
}

TEST_F(RestClientFaultTest, DeleteOfMissingObjectIsDone) {
  server_->AddRoute(Route::Exact("DELETE", kPath),
                    {ScriptedResponse::KubeStatus(404, "NotFound", "gone")});
  auto client = Client();
  EXPECT_EQ(client->Delete(kPath).code(), kube::StatusCode::kNotFound);
  EXPECT_TRUE(client->DeleteIfExists(kPath).ok());
}

TEST_F(RestClientFaultTest, ConflictOnUpdateIsRetriedWithAFreshRead) {
  server_->AddRoute(
      Route::Exact("GET", kPath),
      {ScriptedResponse::Json(200, R"({"metadata":{"resourceVersion":"1"},"data":{}})"),
       ScriptedResponse::Json(200, R"({"metadata":{"resourceVersion":"2"},"data":{}})")});
  server_->AddRoute(Route::Exact("PUT", kPath),
                    {ScriptedResponse::KubeStatus(409, "Conflict", "the object has been modified"),
                     ScriptedResponse::Json(200, R"({"metadata":{"resourceVersion":"3"}})")});
  auto client = Client();
  kube::Status updated = kube::RetryOnConflict([&] {
    auto fresh = client->Get(kPath);
    if (!fresh.ok()) return fresh.status();
    (*fresh)["data"]["x"] = "y";
    auto put = client->Update(kPath, *fresh);
    return put.ok() ? kube::Status::Ok() : put.status();
  });
  ASSERT_TRUE(updated.ok()) << updated.ToString();
  auto requests = server_->Requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[1].method, "PUT");
  EXPECT_NE(requests[1].body.find(R"("resourceVersion":"1")"), std::string::npos);
  EXPECT_NE(requests[3].body.find(R"("resourceVersion":"2")"), std::string::npos)
      << "second PUT uses the fresh read";
}

TEST_F(RestClientFaultTest, RotatedTokenFileIsUsedByTheNextRequest) {
  TempDir dir;
  std::string token_path = dir.Write("token", "first-token\n");
  server_->AddRoute(Route::Prefix("GET", "/version"),
                    {ScriptedResponse::Json(200, R"({"gitVersion":"v1.37.2"})")});
  auto client = Client(kube::TokenSource::FromFile(token_path));
  ASSERT_TRUE(client->Get("/version").ok());
  std::filesystem::rename(dir.Write("token.next", "second-token\n"), token_path);
  ASSERT_TRUE(client->Get("/version").ok());
  auto requests = server_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].Header("Authorization"), "Bearer first-token");
  EXPECT_EQ(requests[1].Header("Authorization"), "Bearer second-token");
  EXPECT_NE(requests[0].Header("User-Agent").find("kube-runtime-cpp"), std::string::npos);
}

TEST_F(RestClientFaultTest, ClientSideThrottleDelaysRequestsBeyondTheBurst) {
  server_->AddRoute(Route::Prefix("GET", "/version"), {ScriptedResponse::Json(200, "{}")});
  // Time stands still (the recorded sleeps do not advance it), so no token
  // comes back while the requests run, however slowly they run (TSan).
  auto client = Client(nullptr, /*qps=*/10, std::make_shared<kube::FakeClock>());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(client->Get("/version").ok());
  ASSERT_EQ(sleeps_.size(), 2u) << "three requests fit the burst, two wait for tokens";
  EXPECT_GE(sleeps_[0], 80ms);
  EXPECT_GE(sleeps_[1], 150ms) << "tokens are reserved ahead, so waits accumulate";
}

// Ignores what it receives.
class DiscardingStream : public kube::StreamHandler {
 public:
  void OnHead(const kube::HttpResponse&) override {}
  bool OnData(std::string_view) override { return true; }
};

double RequestsCounted(prometheus::Registry& registry, const std::string& code) {
  double total = 0;
  for (const auto& family : registry.Collect()) {
    if (family.name != "rest_client_requests_total") continue;
    for (const auto& metric : family.metric) {
      for (const auto& label : metric.label) {
        if (label.name == "code" && label.value == code) total += metric.counter.value;
      }
    }
  }
  return total;
}

TEST_F(RestClientFaultTest, StreamedRequestsAreCountedByTheirAnswer) {
  const std::string watch = "/api/v1/pods?watch=true";
  server_->AddRoute(Route::Exact("GET", watch).Once(),
                    {ScriptedResponse::Streamed({StreamStep::Chunk("{}\n"), StreamStep::End()}),
                     ScriptedResponse::KubeStatus(403, "Forbidden", "RBAC")});
  auto registry = std::make_shared<prometheus::Registry>();
  kube::RestClientMetrics metrics(registry, "scripted");
  kube::RestConfig config;
  config.server = server_->Url();
  auto transport = kube::HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok()) << transport.status().ToString();
  kube::RestClientOptions options;
  options.metrics = &metrics;
  kube::RestClient client(std::shared_ptr<kube::HttpTransport>(std::move(*transport)), options);
  kube::HttpRequest request;
  request.path = watch;
  DiscardingStream stream;
  kube::CancelFlag cancel;
  EXPECT_TRUE(client.Stream(request, stream, cancel, 5s).ok());
  (void)client.Stream(request, stream, cancel, 5s);
  server_->Stop();
  EXPECT_FALSE(client.Stream(request, stream, cancel, 5s).ok());
  EXPECT_EQ(RequestsCounted(*registry, "200"), 1);
  EXPECT_EQ(RequestsCounted(*registry, "403"), 1);
  EXPECT_EQ(RequestsCounted(*registry, "<error>"), 1) << "a watch that got no answer counts too";
}

}  // namespace
}  // namespace dra::testing
