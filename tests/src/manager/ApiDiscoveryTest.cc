// ApiDiscovery against a scripted API server: what a group-version probe
// records, and what it asks for.
#include <gtest/gtest.h>

#include "src/http/HttpTransport.h"
#include "src/manager/ApiDiscovery.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::testing {
namespace {

class ApiDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok());
    server_ = std::move(*server);
    auto client = server_->NewClient();
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }

  std::vector<std::string> Paths() const {
    std::vector<std::string> paths;
    for (const auto& request : server_->Requests()) paths.push_back(request.Path());
    return paths;
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::shared_ptr<kube::RestClient> client_;
  kube::ApiDiscovery discovery_;
};

TEST_F(ApiDiscoveryTest, AGroupVersionProbeRecordsItsResourcesWithoutAskingForTheVersion) {
  server_->AddRoute(Route::Exact("GET", "/apis/example.com/v1"),
                    {ScriptedResponse::Json(200, R"({"resources":[{"name":"widgets"},
                                                     {"name":7},{"kind":"Gadget"}]})")});
  server_->AddRoute(Route::Exact("GET", "/api/v1"),
                    {ScriptedResponse::Json(200, R"({"resources":[{"name":"pods"}]})")});

  ASSERT_TRUE(discovery_.ProbeGroupVersion(*client_, "example.com/v1").ok());
  ASSERT_TRUE(discovery_.ProbeGroupVersion(*client_, "v1").ok());

  EXPECT_TRUE(discovery_.Serves("example.com/v1", "widgets"));
  EXPECT_FALSE(discovery_.Serves("example.com/v1", "gadgets"));
  EXPECT_TRUE(discovery_.Serves("v1", "pods"));
  EXPECT_EQ(discovery_.server_version(), "");
  EXPECT_EQ(Paths(), (std::vector<std::string>{"/apis/example.com/v1", "/api/v1"}));
}

TEST_F(ApiDiscoveryTest, AGroupVersionNotServedIsNotFoundAndNotRecorded) {
  kube::Status probed = discovery_.ProbeGroupVersion(*client_, "example.com/v2");  // unrouted: 404

  EXPECT_EQ(probed.code(), kube::StatusCode::kNotFound) << probed.ToString();
  EXPECT_FALSE(discovery_.ServesGroupVersion("example.com/v2"));
}

TEST_F(ApiDiscoveryTest, AGroupVersionWithoutAResourceListIsServedButEmpty) {
  server_->AddRoute(Route::Exact("GET", "/apis/example.com/v1"),
                    {ScriptedResponse::Json(200, R"(["not","a","resource","list"])")});

  ASSERT_TRUE(discovery_.ProbeGroupVersion(*client_, "example.com/v1").ok());

  EXPECT_TRUE(discovery_.ServesGroupVersion("example.com/v1"));
  EXPECT_FALSE(discovery_.Serves("example.com/v1", "widgets"));
}

}  // namespace
}  // namespace dra::testing
