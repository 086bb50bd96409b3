#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include "src/cache/InformerRegistry.h"
#include "src/cache/MetaObject.h"
#include "tests/support/CountingHandler.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;
using kube::MetaObject;

const kube::ResourceType kSlices{"resource.k8s.io", "v1", "resourceslices", false, "ResourceSlice"};

// Answers every LIST with `list` and holds every WATCH open; returns a
// client of the server.
std::shared_ptr<kube::RestClient> ListThenHoldWatches(ScriptedHttpServer& srv,
                                                      const std::string& list) {
  srv.AddRoute(Route::Where("GET", [](const RecordedRequest& r) { return !r.QueryParam("watch"); }),
               {ScriptedResponse::Json(200, list)});
  srv.AddRoute(
      Route::Where("GET",
                   [](const RecordedRequest& r) { return r.QueryParam("watch").has_value(); }),
      {ScriptedResponse::Streamed({StreamStep::Pause(StreamStep::kMaxPause)})});
  kube::RestConfig config;
  config.server = srv.Url();
  auto transport = kube::HttpTransport::Create(config);
  EXPECT_TRUE(transport.ok()) << transport.status().ToString();
  if (!transport.ok()) return nullptr;
  return std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)));
}

TEST(InformerRegistryTest, ReconcilersShareOneWatchPerResource) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  auto& srv = **server;
  auto client = ListThenHoldWatches(srv, R"({"metadata":{"resourceVersion":"5"},"items":[
                   {"metadata":{"name":"s1","resourceVersion":"4"}}]})");
  ASSERT_NE(client, nullptr);

  kube::InformerRegistry registry(client);
  registry.SetWatchListMode(kube::WatchListMode::kOff);  // the server scripts LIST + WATCH
  auto& first = registry.Get<MetaObject>(kSlices, MetaObject::FromJson);
  auto& second = registry.Get<MetaObject>(kSlices, MetaObject::FromJson);
  EXPECT_EQ(&first, &second);
  kube::ReflectorOptions filtered;
  filtered.field_selector = "spec.driver=x";
  EXPECT_NE(&registry.Get<MetaObject>(kSlices, MetaObject::FromJson, filtered), &first);
  EXPECT_EQ(registry.size(), 2u);

  auto a = std::make_shared<CountingHandler<MetaObject>>();
  auto b = std::make_shared<CountingHandler<MetaObject>>();
  first.AddHandler(a);
  second.AddHandler(b);
  registry.StartAll();
  ASSERT_TRUE(registry.WaitForSync(10s));
  EXPECT_EQ(a->adds(), (std::map<std::string, int>{{"s1", 1}}));
  EXPECT_EQ(b->adds(), (std::map<std::string, int>{{"s1", 1}}));
  ASSERT_TRUE(srv.WaitForRequests(4, 10s));
  registry.StopAll();
  int lists = 0;
  for (const auto& r : srv.Requests()) lists += r.QueryParam("watch") ? 0 : 1;
  EXPECT_EQ(lists, 2) << "one list per distinct informer, not per handler";
}

TEST(InformerRegistryTest, InformersReportDecodeErrorsToTheRegistrysMetrics) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  auto& srv = **server;
  // An item without metadata.name cannot be cached.
  auto client = ListThenHoldWatches(srv, R"({"metadata":{"resourceVersion":"5"},"items":[
                   {"metadata":{"name":"s1","resourceVersion":"4"}},{"metadata":{}}]})");
  ASSERT_NE(client, nullptr);
  auto metrics = std::make_shared<prometheus::Registry>();

  kube::InformerRegistry registry(client, metrics);
  registry.SetWatchListMode(kube::WatchListMode::kOff);
  auto& informer = registry.Get<MetaObject>(kSlices, MetaObject::FromJson);
  registry.StartAll();
  ASSERT_TRUE(registry.WaitForSync(10s));
  registry.StopAll();
  EXPECT_EQ(informer.store().Size(), 1u);
  double counted = 0;
  for (const auto& family : metrics->Collect()) {
    if (family.name != "reflector_decode_errors_total") continue;
    for (const auto& metric : family.metric) {
      ASSERT_EQ(metric.label.size(), 1u);
      EXPECT_EQ(metric.label[0].value, "resourceslices.resource.k8s.io");
      counted += metric.counter.value;
    }
  }
  EXPECT_EQ(counted, 1);
}

}  // namespace
}  // namespace dra::testing
