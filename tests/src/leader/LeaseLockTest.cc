#include <gtest/gtest.h>

#include "src/http/HttpTransport.h"
#include "src/leader/LeaseLock.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kLeasePath = "/apis/coordination.k8s.io/v1/namespaces/default/leases/lock";
constexpr const char* kLeasesPath = "/apis/coordination.k8s.io/v1/namespaces/default/leases";

std::string LeaseJson(const std::string& resource_version, const std::string& spec) {
  return R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",)"
         R"("metadata":{"name":"lock","namespace":"default","resourceVersion":")" +
         resource_version + R"(","labels":{"keep":"me"}},"spec":)" + spec + "}";
}

const char* kHeldSpec =
    R"({"holderIdentity":"other","leaseDurationSeconds":15,)"
    R"("acquireTime":"2026-01-01T00:00:00.000000Z","renewTime":"2026-01-01T00:00:05.000000Z",)"
    R"("leaseTransitions":3})";

class LeaseLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
    kube::RestConfig config;
    config.request_timeout = 2s;
    kube::RestClientOptions options;
    options.max_retries = 0;
    auto client = server_->NewClient(options, config);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    lock_ = std::make_unique<kube::LeaseLock>(*client, "default", "lock");
  }

  nlohmann::json LastBody(const std::string& method) const {
    const auto requests = server_->Requests();
    for (auto it = requests.rbegin(); it != requests.rend(); ++it) {
      if (it->method == method) return nlohmann::json::parse(it->body);
    }
    return nullptr;
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::unique_ptr<kube::LeaseLock> lock_;
};

TEST_F(LeaseLockTest, GetReadsTheRecordAndItsVersion) {
  server_->AddRoute(Route::Exact("GET", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("7", kHeldSpec))});
  auto record = lock_->Get();
  ASSERT_TRUE(record.ok()) << record.status().ToString();
  EXPECT_EQ(record->holder_identity, "other");
  EXPECT_EQ(record->lease_duration_seconds, 15);
  EXPECT_EQ(record->acquire_time, "2026-01-01T00:00:00.000000Z");
  EXPECT_EQ(record->renew_time, "2026-01-01T00:00:05.000000Z");
  EXPECT_EQ(record->leader_transitions, 3);
  EXPECT_EQ(record->resource_version, "7");
  EXPECT_EQ(lock_->Describe(), "default/lock");
}

TEST_F(LeaseLockTest, AbsentAndNullFieldsReadAsEmpty) {
  server_->AddRoute(
      Route::Exact("GET", kLeasePath),
      {ScriptedResponse::Json(200, LeaseJson("1", R"({"holderIdentity":null,"renewTime":null})"))});
  auto record = lock_->Get();
  ASSERT_TRUE(record.ok()) << record.status().ToString();
  EXPECT_EQ(record->holder_identity, "");
  EXPECT_EQ(record->renew_time, "");
  EXPECT_EQ(record->lease_duration_seconds, 0);
}

TEST_F(LeaseLockTest, GetPassesNotFoundOn) {
  server_->AddRoute(Route::Exact("GET", kLeasePath),
                    {ScriptedResponse::KubeStatus(404, "NotFound", "leases \"lock\" not found")});
  EXPECT_EQ(lock_->Get().status().code(), kube::StatusCode::kNotFound);
}

TEST_F(LeaseLockTest, UpdateSendsTheObjectAsReadWithTheNewSpec) {
  server_->AddRoute(Route::Exact("GET", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("7", kHeldSpec))});
  server_->AddRoute(Route::Exact("PUT", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("8", kHeldSpec))});
  ASSERT_TRUE(lock_->Get().ok());
  kube::LeaderElectionRecord record{"me", 15, "A", "R", 4, "ignored"};
  kube::Status updated = lock_->Update(record);
  ASSERT_TRUE(updated.ok()) << updated.ToString();
  nlohmann::json body = LastBody("PUT");
  EXPECT_EQ(body["metadata"]["resourceVersion"], "7");
  EXPECT_EQ(body["metadata"]["labels"]["keep"], "me");
  EXPECT_EQ(body["spec"],
            nlohmann::json::parse(R"({"holderIdentity":"me","leaseDurationSeconds":15,)"
                                  R"("acquireTime":"A","renewTime":"R","leaseTransitions":4})"));

  // The next update is conditional on the version the server answered.
  ASSERT_TRUE(lock_->Update(record).ok());
  EXPECT_EQ(LastBody("PUT")["metadata"]["resourceVersion"], "8");
}

TEST_F(LeaseLockTest, UpdateReportsAConflict) {
  server_->AddRoute(Route::Exact("GET", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("7", kHeldSpec))});
  server_->AddRoute(
      Route::Exact("PUT", kLeasePath),
      {ScriptedResponse::KubeStatus(409, "Conflict", "the object has been modified")});
  ASSERT_TRUE(lock_->Get().ok());
  EXPECT_EQ(lock_->Update({"me", 15, "A", "R", 4, ""}).code(), kube::StatusCode::kConflict);
}

TEST_F(LeaseLockTest, UpdateBeforeAnyReadSendsNothing) {
  kube::Status updated = lock_->Update({"me", 15, "A", "R", 0, ""});
  EXPECT_EQ(updated.code(), kube::StatusCode::kInvalidArgument);
  EXPECT_TRUE(server_->Requests().empty());
}

TEST_F(LeaseLockTest, CreatePostsALeaseAndUpdatesItAfterwards) {
  server_->AddRoute(Route::Exact("POST", kLeasesPath),
                    {ScriptedResponse::Json(201, LeaseJson("3", kHeldSpec))});
  server_->AddRoute(Route::Exact("PUT", kLeasePath),
                    {ScriptedResponse::Json(200, LeaseJson("4", kHeldSpec))});
  kube::Status created = lock_->Create({"me", 15, "A", "R", 0, ""});
  ASSERT_TRUE(created.ok()) << created.ToString();
  nlohmann::json body = LastBody("POST");
  EXPECT_EQ(body["kind"], "Lease");
  EXPECT_EQ(body["metadata"]["name"], "lock");
  EXPECT_EQ(body["metadata"]["namespace"], "default");
  EXPECT_EQ(body["spec"]["holderIdentity"], "me");
  ASSERT_TRUE(lock_->Update({"me", 15, "A", "R2", 0, ""}).ok());
  EXPECT_EQ(LastBody("PUT")["metadata"]["resourceVersion"], "3");
}

}  // namespace
}  // namespace dra::testing
