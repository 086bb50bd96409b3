#include <gtest/gtest.h>

#include "src/cache/InformerDependency.h"
#include "src/cache/InformerRegistry.h"
#include "src/cache/MetaObject.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;
using kube::MetaObject;

const kube::ResourceType kSlices{"resource.k8s.io", "v1", "resourceslices", false, "ResourceSlice"};

// The first LIST is forbidden, the next succeeds; watches are held open.
// Until the informer syncs, its dependency names it and the API server's
// answer; then it is Ok, for it and for the registry.
TEST(InformerDependencyTest, SaysWhyItsInformerHasNotSynced) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  auto& srv = **server;
  srv.AddRoute(Route::Where("GET", [](const RecordedRequest& r) { return !r.QueryParam("watch"); }),
               {ScriptedResponse::Json(403, R"({"kind":"Status","code":403,"reason":"Forbidden",
                  "message":"cannot list resource \"resourceslices\""})"),
                ScriptedResponse::Json(200, R"({"metadata":{"resourceVersion":"5"},"items":[]})")});
  srv.AddRoute(
      Route::Where("GET",
                   [](const RecordedRequest& r) { return r.QueryParam("watch").has_value(); }),
      {ScriptedResponse::Streamed({StreamStep::Pause(StreamStep::kMaxPause)})});
  kube::RestConfig config;
  config.server = srv.Url();
  auto transport = kube::HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok()) << transport.status().ToString();
  auto client = std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)));

  kube::InformerRegistry registry(client);
  registry.SetWatchListMode(kube::WatchListMode::kOff);
  auto& slices = registry.Get<MetaObject>(kSlices, MetaObject::FromJson);
  auto dependency = kube::InformerDependency::On(slices);
  EXPECT_EQ(dependency.name(), "resourceslices.resource.k8s.io");
  EXPECT_EQ(registry.Dependencies(), std::vector{dependency});
  EXPECT_FALSE(dependency.synced());
  EXPECT_EQ(dependency.Check().message(), "resourceslices.resource.k8s.io: not synced");

  registry.StartAll();
  auto denied = WaitFor("the denial recorded", 10s, [&] {
    return dependency.Check().message().find("Forbidden") != std::string::npos;
  });
  EXPECT_TRUE(denied.ok()) << denied.ToString();
  EXPECT_EQ(dependency.Check().code(), kube::StatusCode::kUnavailable);
  EXPECT_NE(dependency.Check().message().find("resourceslices.resource.k8s.io: not synced: "
                                              "Forbidden: "),
            std::string::npos)
      << dependency.Check().message();
  EXPECT_NE(registry.CheckSynced().message().find("cannot list resource \"resourceslices\""),
            std::string::npos)
      << registry.CheckSynced().message();

  ASSERT_TRUE(dependency.WaitForSync(10s));  // after the reflector's backoff
  EXPECT_TRUE(dependency.synced());
  EXPECT_TRUE(dependency.Check().ok());
  EXPECT_TRUE(registry.CheckSynced().ok());
  registry.StopAll();
}

}  // namespace
}  // namespace dra::testing
