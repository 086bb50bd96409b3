// The eviction a PodDisruptionBudget refuses: the API server answers 429 with
// Retry-After: 10 (pkg/registry/core/pod/storage/eviction.go,
// createTooManyRequestsError). The evictor requeues the rule itself, so the
// request must come back at once instead of holding the only worker through
// the client's retries.
#include <gtest/gtest.h>

#include "controller/health/RestPodEvictor.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::health {
namespace {

using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using namespace std::chrono_literals;

const std::string kEviction = "/api/v1/namespaces/team-a/pods/job-0/eviction";

class RestPodEvictorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
    kube::RestClientOptions options;
    options.sleep = [this](std::chrono::milliseconds d) { slept_ += d; };
    auto client = server_->NewClient(options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::shared_ptr<kube::RestClient> client_;
  std::chrono::milliseconds slept_{0};
};

TEST_F(RestPodEvictorTest, ABudgetRefusalReturnsAtOnceForTheEvictorToRequeue) {
  server_->AddRoute(Route::Exact("POST", kEviction),
                    {ScriptedResponse::KubeStatus(
                        429, "TooManyRequests",
                        "Cannot evict pod as it would violate the pod's disruption budget.", 10)});
  kube::Status evicted = RestPodEvictor(client_).Evict("team-a", "job-0", "uid-0");
  EXPECT_EQ(evicted.code(), kube::StatusCode::kTooManyRequests) << evicted.ToString();
  EXPECT_EQ(server_->Requests().size(), 1u);
  EXPECT_EQ(slept_, 0ms);
}

TEST_F(RestPodEvictorTest, PostsAnEvictionWithTheUidPrecondition) {
  server_->AddRoute(Route::Exact("POST", kEviction),
                    {ScriptedResponse::Json(201, R"({"kind":"Status","status":"Success"})")});
  kube::Status evicted = RestPodEvictor(client_).Evict("team-a", "job-0", "uid-0");
  ASSERT_TRUE(evicted.ok()) << evicted.ToString();
  auto requests = server_->Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_NE(requests[0].body.find(R"("uid":"uid-0")"), std::string::npos) << requests[0].body;
  EXPECT_NE(requests[0].body.find(R"("kind":"Eviction")"), std::string::npos) << requests[0].body;
}

}  // namespace
}  // namespace dra::health
