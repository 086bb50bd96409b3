// Events recorded against the real kube-apiserver: a burst of identical
// Warnings about one ConfigMap becomes a single Event whose count grew.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "src/events/EventRecorder.h"
#include "tests/support/ClusterTest.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

const kube::ResourceType kConfigMaps{"", "v1", "configmaps", true, "ConfigMap"};
const kube::ResourceType kEvents{"", "v1", "events", true, "Event"};

class EventRecorderTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto ns = cluster_->CreateTestNamespace("events");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }
  void TearDown() override {
    if (cluster_ && !ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  json ConfigMap(const std::string& name) {
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", name}, {"namespace", ns_}}},
            {"data", {{"x", "1"}}}};
  }

  std::string ns_;
};

TEST_F(EventRecorderTest, IdenticalWarningsBecomeOneEventWithACount) {
  auto created = client_->Create(kConfigMaps, ns_, ConfigMap("noisy"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  kube::ObjectReference config_map{"v1",
                                   "ConfigMap",
                                   ns_,
                                   "noisy",
                                   (*created)["metadata"].value("uid", ""),
                                   (*created)["metadata"].value("resourceVersion", "")};

  kube::EventRecorder recorder(client_, "dra-controller-test");
  ASSERT_TRUE(recorder.Start().ok());
  for (int i = 0; i < 100; ++i) {
    recorder.Event(config_map, kube::kEventTypeWarning, "ConfigRejected", "key x is not allowed");
  }
  recorder.Stop(30s);
  auto counters = recorder.counters();
  EXPECT_EQ(counters.write_errors, 0u);
  EXPECT_EQ(counters.dropped_on_stop, 0u);
  EXPECT_EQ(counters.created, 1u);

  kube::ListOptions options;
  options.field_selector = "involvedObject.name=noisy";
  auto events = client_->List(kEvents, ns_, options);
  ASSERT_TRUE(events.ok()) << events.status().ToString();
  const json& items = (*events)["items"];
  ASSERT_EQ(items.size(), 1u) << items.dump(2);
  const json& event = items[0];
  EXPECT_GE(event.value("count", 0), 2) << event.dump(2);
  EXPECT_LE(event.value("count", 0), 100) << event.dump(2);
  EXPECT_EQ(event.value("type", ""), "Warning");
  EXPECT_EQ(event.value("reason", ""), "ConfigRejected");
  EXPECT_EQ(event.value("message", ""), "key x is not allowed");
  EXPECT_EQ(event["involvedObject"].value("kind", ""), "ConfigMap");
  EXPECT_EQ(event["involvedObject"].value("name", ""), "noisy");
  EXPECT_EQ(event["involvedObject"].value("namespace", ""), ns_);
  EXPECT_EQ(event["involvedObject"].value("uid", ""), config_map.uid);
  EXPECT_EQ(event["source"].value("component", ""), "dra-controller-test");
}

}  // namespace
}  // namespace dra::testing
