#include <gtest/gtest.h>

#include "controller/report/ClusterSnapshot.h"
#include "src/http/HttpTransport.h"
#include "tests/support/FakeObjects.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::testing {
namespace {

Route Path(const std::string& path, std::optional<std::string> continue_token = std::nullopt) {
  return Route::Where("GET", [path, continue_token](const RecordedRequest& r) {
    return r.Path() == path && r.QueryParam("continue") == continue_token;
  });
}

std::string ClassJson(const std::string& name) {
  return R"({"metadata":{"name":")" + name +
         R"(","creationTimestamp":"2026-07-24T10:00:00Z"},"spec":{"extendedResourceName":"example.com/gpu"}})";
}

class ClusterSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok());
    server_ = std::move(*server);
    auto client = server_->NewClient();
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }

  void ServeDraObjects() {
    const std::string api = "/apis/resource.k8s.io/v1/";
    server_->AddRoute(Path(api + "deviceclasses"),
                      {ScriptedResponse::Json(200, R"({"metadata":{"continue":"page2"},"items":[)" +
                                                       ClassJson("a") + "]}")});
    server_->AddRoute(
        Path(api + "deviceclasses", "page2"),
        {ScriptedResponse::Json(200, R"({"metadata":{},"items":[)" + ClassJson("b") + "]}")});
    server_->AddRoute(
        Path(api + "resourceslices"),
        {ScriptedResponse::Json(200, R"({"metadata":{},"items":[)" + FakeSliceJson(0, 8) + "]}")});
    server_->AddRoute(Path(api + "resourceclaims"),
                      {ScriptedResponse::Json(200, R"({"metadata":{},"items":[]})")});
    server_->AddRoute(Path(api + "devicetaintrules"),
                      {ScriptedResponse::KubeStatus(404, "NotFound", "not served")});
  }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::shared_ptr<kube::RestClient> client_;
};

TEST_F(ClusterSnapshotTest, ListsEveryPageAndBuildsTheInventory) {
  ServeDraObjects();
  server_->AddRoute(Path("/api/v1/nodes"), {ScriptedResponse::Json(200, R"({"metadata":{},"items":[
                        {"metadata":{"name":"node-0"},"status":{"allocatable":{"example.com/gpu":"2"}}},
                        {"kind":"broken"}]})")});
  auto snapshot = report::ClusterSnapshot::List(*client_, {});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  const auto& s = **snapshot;
  ASSERT_EQ(s.classes.size(), 2u);
  EXPECT_EQ(s.classes[1]->meta.name, "b");
  EXPECT_EQ(s.inventory->device_count(), 8u);
  EXPECT_EQ(s.inventory->Count("a").total, 8);
  ASSERT_EQ(s.nodes.size(), 1u);
  EXPECT_EQ(s.decode_errors, 1);  // the node without metadata
  EXPECT_TRUE(s.pods.empty());
  EXPECT_EQ(s.Claim("team", "absent"), nullptr);
}

TEST_F(ClusterSnapshotTest, AFailedListIsAnError) {
  ServeDraObjects();
  server_->AddRoute(Path("/api/v1/nodes"),
                    {ScriptedResponse::KubeStatus(403, "Forbidden", "nodes is forbidden")});
  auto snapshot = report::ClusterSnapshot::List(*client_, {});
  ASSERT_FALSE(snapshot.ok());
  EXPECT_NE(snapshot.status().message().find("forbidden"), std::string::npos)
      << snapshot.status().ToString();
}

}  // namespace
}  // namespace dra::testing
