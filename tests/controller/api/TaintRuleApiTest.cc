// TaintRuleApi::Discover against a scripted API server: the newest version
// serving devicetaintrules wins, unserved versions are skipped, and a server
// that cannot be asked is an error.
#include <gtest/gtest.h>

#include "controller/api/TaintRuleApi.h"
#include "src/http/HttpTransport.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::testing {
namespace {

std::string ResourceList(const std::string& group_version, const std::string& plural) {
  return R"({"kind":"APIResourceList","groupVersion":")" + group_version +
         R"(","resources":[{"name":")" + plural + R"("}]})";
}

class TaintRuleApiDiscoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok());
    server_ = std::move(*server);
    auto client = server_->NewClient();
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }

  void Serve(const std::string& version, ScriptedResponse response) {
    server_->AddRoute(Route::Exact("GET", "/apis/resource.k8s.io/" + version), {response});
  }

  std::vector<std::string> Paths() const {
    std::vector<std::string> paths;
    for (const auto& request : server_->Requests()) paths.push_back(request.Path());
    return paths;
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::shared_ptr<kube::RestClient> client_;
};

TEST_F(TaintRuleApiDiscoverTest,
       DiscoverPicksTheNewestServingVersionWithoutAskingForTheServerVersion) {
  Serve("v1", ScriptedResponse::KubeStatus(404, "NotFound", "not served"));
  Serve("v1beta2",
        ScriptedResponse::Json(200, ResourceList("resource.k8s.io/v1beta2", "resourceclaims")));
  Serve("v1alpha3",
        ScriptedResponse::Json(200, ResourceList("resource.k8s.io/v1alpha3", "devicetaintrules")));

  auto served = api::TaintRuleApi::Discover(*client_);

  ASSERT_TRUE(served.ok()) << served.status().ToString();
  ASSERT_TRUE(served->has_value());
  EXPECT_EQ((*served)->version, "v1alpha3");
  EXPECT_EQ(Paths(),
            (std::vector<std::string>{"/apis/resource.k8s.io/v1", "/apis/resource.k8s.io/v1beta2",
                                      "/apis/resource.k8s.io/v1alpha3"}));
}

TEST_F(TaintRuleApiDiscoverTest, DiscoverStopsAtTheFirstVersionServingIt) {
  Serve("v1", ScriptedResponse::Json(200, ResourceList("resource.k8s.io/v1", "devicetaintrules")));

  auto served = api::TaintRuleApi::Discover(*client_);

  ASSERT_TRUE(served.ok()) << served.status().ToString();
  ASSERT_TRUE(served->has_value());
  EXPECT_EQ((*served)->version, "v1");
  EXPECT_EQ(Paths(), (std::vector<std::string>{"/apis/resource.k8s.io/v1"}));
}

// Bad input gets an answer, never an exception out of the JSON library.
TEST_F(TaintRuleApiDiscoverTest, DiscoverPassesOverAResourceWhoseNameIsNotAString) {
  Serve("v1",
        ScriptedResponse::Json(200, R"({"resources":[{"name":7},{"name":"devicetaintrules"}]})"));

  auto served = api::TaintRuleApi::Discover(*client_);

  ASSERT_TRUE(served.ok()) << served.status().ToString();
  ASSERT_TRUE(served->has_value());
  EXPECT_EQ((*served)->version, "v1");
}

TEST_F(TaintRuleApiDiscoverTest, DiscoverFindsNoneWhenNoVersionServesIt) {
  auto served = api::TaintRuleApi::Discover(*client_);  // every path answers 404

  ASSERT_TRUE(served.ok()) << served.status().ToString();
  EXPECT_FALSE(served->has_value());
}

TEST_F(TaintRuleApiDiscoverTest, DiscoverFailsWhenTheServerCannotBeAsked) {
  Serve("v1", ScriptedResponse::KubeStatus(403, "Forbidden", "discovery is forbidden"));

  auto served = api::TaintRuleApi::Discover(*client_);

  ASSERT_FALSE(served.ok());
  EXPECT_EQ(served.status().code(), kube::StatusCode::kForbidden);
}

}  // namespace
}  // namespace dra::testing
