#pragma once

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "src/client/RestClientMetrics.h"
#include "tests/support/CountingHandler.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::testing {

// A fixture for reflector tests: a Pod informer (v1 pods, namespaced,
// MetaObject) against a ScriptedHttpServer started for each test, its
// reflector and REST client counting into one registry, and a
// CountingHandler on it. A test's SetUp adds the routes it scripts; a test
// queues responses, then calls StartInformer().
class ScriptedPodInformerTest : public ::testing::Test {
 public:
  // A Pod in namespace "ns" and a PodList of such Pods, as the server lists them.
  static std::string Pod(const std::string& name, int rv);
  static std::string PodList(const std::vector<std::string>& pods, int rv);
  // A LIST of /api/v1/pods (no watch parameter).
  static bool IsList(const RecordedRequest& r);
  // A WATCH of /api/v1/pods (a watch parameter, whatever else it asks).
  static bool IsWatch(const RecordedRequest& r);

 protected:
  using RequestKind = bool (*)(const RecordedRequest&);

  void SetUp() override;
  void TearDown() override;
  void StartInformer();
  // Queues `response` on `route`; a script error fails the test.
  void Enqueue(ScriptedHttpServer::RouteId route, ScriptedResponse response);

  std::vector<RecordedRequest> Requests(RequestKind kind) const;
  // Request #n of `kind` arrived (so what came before it was handled), and
  // the handler has been given all of that.
  bool WaitForRequest(RequestKind kind, size_t n, const std::string& what = "request");
  std::set<std::string> CachedKeys();
  // The sum of counter `name` over the series whose label `label` is `value`.
  double Counted(const std::string& name, const std::string& label, const std::string& value);

  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  kube::RestClientMetrics rest_metrics_{registry_, "scripted"};
  // 50 ms first backoff, 400 ms at most; `metrics` is set to registry_.
  kube::ReflectorOptions options_ = DefaultOptions();
  std::unique_ptr<ScriptedHttpServer> server_;
  std::shared_ptr<CountingHandler<kube::MetaObject>> events_ =
      std::make_shared<CountingHandler<kube::MetaObject>>();
  std::shared_ptr<kube::HandlerRegistration> events_registration_;
  std::unique_ptr<kube::Informer<kube::MetaObject>> informer_;
  // How the informer projects Pods; JSON only unless a test adds protobuf.
  kube::ObjectDecoder<kube::MetaObject> decoder_ = kube::MetaObject::FromJson;

 private:
  static kube::ReflectorOptions DefaultOptions();
};

}  // namespace dra::testing
