#include <gtest/gtest.h>

#include <atomic>

#include "src/http/HttpTransport.h"
#include "src/leader/LeaderElector.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kLeasePath = "/apis/coordination.k8s.io/v1/namespaces/default/leases/lock";

std::string LeaseJson(const std::string& holder, int duration_seconds) {
  return R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",)"
         R"("metadata":{"name":"lock","namespace":"default","resourceVersion":"7"},)"
         R"("spec":{"holderIdentity":")" +
         holder + R"(","leaseDurationSeconds":)" + std::to_string(duration_seconds) +
         R"(,"renewTime":"2026-01-01T00:00:00.000000Z","leaseTransitions":3}})";
}

class LeaderElectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
  }
  void TearDown() override {
    if (elector_) elector_->Stop();
    server_->Stop();
  }

  void StartElector(std::chrono::milliseconds lease, std::chrono::milliseconds renew_deadline,
                    std::chrono::milliseconds retry) {
    kube::RestConfig config;
    config.server = server_->Url();
    config.request_timeout = 2s;
    auto transport = kube::HttpTransport::Create(config);
    ASSERT_TRUE(transport.ok()) << transport.status().ToString();
    auto client = std::make_shared<kube::RestClient>(
        std::shared_ptr<kube::HttpTransport>(std::move(*transport)), kube::RestClientOptions{});
    kube::LeaderElectionConfig election;
    election.namespace_name = "default";
    election.name = "lock";
    election.identity = "me";
    election.lease_duration = lease;
    election.renew_deadline = renew_deadline;
    election.retry_period = retry;
    election.on_stopped_leading = [this] { stopped_leading_ = true; };
    elector_ = std::make_unique<kube::LeaderElector>(client, election);
    elector_->Start();
  }

  int Count(const std::string& method) const {
    int n = 0;
    for (const auto& r : server_->Requests()) n += r.method == method ? 1 : 0;
    return n;
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::unique_ptr<kube::LeaderElector> elector_;
  std::atomic<bool> stopped_leading_{false};
};

// A held lease that is never renewed expires after its duration as seen
// here; the candidate must try then, not a whole (long) retry period later.
TEST_F(LeaderElectorTest, CandidateTakesAnUnrenewedLeaseWhenItExpiresNotAtTheNextRetry) {
  server_->AddRoute(Route::Exact("GET", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("other", 1))});
  server_->AddRoute(Route::Exact("PUT", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("me", 1))});
  StartElector(1s, 500ms, 20s);
  auto led =
      WaitFor("the candidate to take the expired lease", 8s, [&] { return elector_->IsLeader(); });
  EXPECT_TRUE(led.ok()) << led.ToString();
  EXPECT_EQ(elector_->ObservedLeader(), "me");
}

TEST_F(LeaderElectorTest, CandidateDoesNotTakeALeaseItHasSeenRenewed) {
  server_->AddRoute(Route::Exact("GET", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("other", 30))});
  StartElector(30s, 20s, 50ms);
  ASSERT_TRUE(server_->WaitForRequests(5, 5s));
  EXPECT_FALSE(elector_->IsLeader());
  EXPECT_EQ(Count("PUT"), 0);
  EXPECT_EQ(elector_->ObservedLeader(), "other");
}

// A leader that cannot renew must stop leading by itself, before a candidate
// could consider the lease expired.
TEST_F(LeaderElectorTest, LeaderThatCannotRenewStopsLeading) {
  // The first read finds no lease; every later one fails.
  std::vector<ScriptedResponse> reads{ScriptedResponse::KubeStatus(404, "NotFound", "no lease")};
  for (int i = 0; i < 200; ++i) {
    reads.push_back(ScriptedResponse::KubeStatus(500, "InternalError", "etcd is down"));
  }
  server_->AddRoute(Route::Exact("GET", kLeasePath).Once(), std::move(reads));
  server_->AddRoute(Route::Exact("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases"),
                    {ScriptedResponse::Json(201, LeaseJson("me", 2))});
  StartElector(2s, 1s, 100ms);
  auto led =
      WaitFor("the first candidate to create the lease", 5s, [&] { return elector_->IsLeader(); });
  ASSERT_TRUE(led.ok()) << led.ToString();
  auto stopped = WaitFor("the leader to step down", 5s, [&] { return stopped_leading_.load(); });
  EXPECT_TRUE(stopped.ok()) << stopped.ToString();
  EXPECT_FALSE(elector_->IsLeader());
}

}  // namespace
}  // namespace dra::testing
