// The Pod projection from protobuf against the real kube-apiserver: LIST
// bodies and the watch-list stream the server encodes must project exactly
// as their JSON does, Pod by Pod, field by field. This is what proves the
// field numbers in PodProtoDecoder against v1.37.2's own encoder.
#include <gtest/gtest.h>

#include <atomic>
#include <map>

#include "controller/api/PodView.h"
#include "src/cache/Informer.h"
#include "src/cache/ProtoListPage.h"
#include "src/cache/WatchDecoder.h"
#include "src/proto/ProtoEnvelope.h"
#include "tests/controller/api/PodViewEquality.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/RawList.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using api::PodView;
using nlohmann::json;
using namespace std::chrono_literals;

const kube::ResourceType& kPods = api::PodView::kResource;

json Container(const std::string& name, json requests, json limits) {
  json c = {{"name", name}, {"image", "registry.k8s.io/pause:3.10"}};
  if (!requests.empty()) c["resources"]["requests"] = requests;
  if (!limits.empty()) c["resources"]["limits"] = limits;
  return c;
}

json Sidecar(const std::string& name, json limits) {
  json c = Container(name, {}, std::move(limits));
  c["restartPolicy"] = "Always";
  return c;
}

json PodWith(const std::string& name, json spec) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"labels", {{"app", name}}}}},
          {"spec", spec}};
}

// Shapes that exercise every field PodView reads: extended resources in
// requests, limits or both, cpu and memory around them (request indexes),
// quantities in several forms, a sidecar, a Pod bound by name, Pods the
// scheduler marks Unschedulable.
std::vector<json> Pods() {
  json gpu = {{"example.com/gpu", "2"}};
  return {
      PodWith("limits-only", {{"containers", {Container("main", {}, gpu)}}}),
      PodWith("mixed",
              {{"containers",
                {Container("main", {{"cpu", "500m"}, {"example.com/gpu", "1"}, {"memory", "1Gi"}},
                           {{"example.com/gpu", "1"}, {"vendor.io/fpga", "3"}}),
                 Container("second", {{"example.com/nic", "1k"}}, {{"example.com/nic", "1k"}})}}}),
      PodWith("sidecar", {{"initContainers",
                           {Container("init", {}, {{"example.com/gpu", "1"}}),
                            Sidecar("proxy", {{"example.com/gpu", "1"}})}},
                          {"containers", {Container("main", {}, gpu)}}}),
      PodWith("bound",
              {{"nodeName", "no-such-node"}, {"containers", {Container("main", {}, gpu)}}}),
      PodWith("plain", {{"containers", {Container("main", {{"cpu", "100m"}}, {})}}}),
  };
}

class PodProtobufTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto ns = cluster_->CreateTestNamespace("podproto");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    for (const auto& pod : Pods()) {
      auto created = client_->Create(kPods, ns_, pod);
      ASSERT_TRUE(created.ok()) << created.status().ToString();
    }
  }

  void TearDown() override {
    for (auto* informer : {json_.get(), proto_.get()}) {
      if (informer) informer->Stop();
    }
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  std::unique_ptr<kube::Informer<PodView>> StartInformer(kube::ObjectDecoder<PodView> decoder) {
    kube::ReflectorOptions options;
    options.field_selector = "metadata.namespace=" + ns_;
    auto informer = std::make_unique<kube::Informer<PodView>>(client_, kPods, decoder, options);
    informer->Start();
    return informer;
  }

  kube::Result<std::string> ListBody(const char* accept) {
    return RawList(*client_, kPods, ns_, accept);
  }

  // Every Pod unschedulable (not bound by name) carries the scheduler's
  // verdict, so the condition fields are compared too.
  bool SchedulerHasSpoken() {
    auto body = ListBody("application/json");
    if (!body.ok()) return false;
    auto pods = json::parse(*body, nullptr, false);
    if (!pods.is_object()) return false;
    for (const auto& pod : pods["items"]) {
      if (pod["spec"].contains("nodeName")) continue;
      if (!pod["status"].contains("conditions")) return false;
    }
    return true;
  }

  std::string ns_;
  std::unique_ptr<kube::Informer<PodView>> json_;
  std::unique_ptr<kube::Informer<PodView>> proto_;
};

TEST_F(PodProtobufTest, ListBodiesProjectAlikeInBothEncodings) {
  ASSERT_TRUE(
      WaitFor("the scheduler's conditions", 60s, [&] { return SchedulerHasSpoken(); }).ok());
  auto proto_body = ListBody(kube::ProtoEnvelope::kAccept);
  ASSERT_TRUE(proto_body.ok()) << proto_body.status().ToString();
  ASSERT_TRUE(kube::ProtoEnvelope::IsProtobuf(*proto_body)) << "the server answered JSON";
  auto page = kube::ProtoListPage::Parse(*proto_body);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  std::map<std::string, PodView> from_proto;
  for (std::string_view item : page->items) {
    auto pod = PodView::FromProto(item);
    ASSERT_TRUE(pod.ok()) << pod.status().ToString();
    from_proto.emplace(pod->meta.Key(), std::move(*pod));
  }

  auto json_body = ListBody("application/json");
  ASSERT_TRUE(json_body.ok());
  kube::WatchDecoder decoder;
  auto doc = decoder.ParseDocument(*json_body);
  ASSERT_TRUE(doc.ok());
  size_t compared = 0;
  simdjson::dom::array items;
  ASSERT_EQ((*doc)["items"].get(items), simdjson::SUCCESS);
  for (simdjson::dom::element item : items) {
    auto pod = PodView::FromJson(item);
    ASSERT_TRUE(pod.ok()) << pod.status().ToString();
    auto it = from_proto.find(pod->meta.Key());
    ASSERT_NE(it, from_proto.end()) << pod->meta.Key();
    if (it->second.meta.resource_version != pod->meta.resource_version)
      continue;  // changed between
    SCOPED_TRACE(pod->meta.Key());
    api::testing::ExpectSamePodView(*pod, it->second);
    ++compared;
  }
  EXPECT_EQ(from_proto.size(), Pods().size());
  EXPECT_GE(compared, Pods().size() - 1);
}

// The informer reads the watch-list and its watch in protobuf; its cache
// equals a JSON informer's, including a Pod created after the sync.
TEST_F(PodProtobufTest, AProtobufInformerCachesWhatAJsonOneDoes) {
  std::atomic<int> decoded{0};
  proto_ = StartInformer(kube::ObjectDecoder<PodView>(PodView::FromJson, [&](std::string_view m) {
    ++decoded;
    return PodView::FromProto(m);
  }));
  json_ = StartInformer(PodView::FromJson);
  ASSERT_TRUE(proto_->WaitForSync(30s));
  ASSERT_TRUE(json_->WaitForSync(30s));
  ASSERT_TRUE(client_
                  ->Create(kPods, ns_,
                           PodWith("late", {{"containers",
                                             {Container("main", {}, {{"example.com/gpu", "4"}})}}}))
                  .ok());
  auto same_versions = [&] {
    auto a = json_->store().List();
    if (a.size() != Pods().size() + 1 || proto_->store().Size() != a.size()) return false;
    for (const auto& pod : a) {
      auto other = proto_->store().Get(pod->meta.Key());
      if (!other || other->meta.resource_version != pod->meta.resource_version) return false;
    }
    return SchedulerHasSpoken();
  };
  ASSERT_TRUE(WaitFor("both caches to hold the same versions", 60s, same_versions).ok());
  for (const auto& pod : json_->store().List()) {
    SCOPED_TRACE(pod->meta.Key());
    api::testing::ExpectSamePodView(*pod, *proto_->store().Get(pod->meta.Key()));
  }
  EXPECT_GE(decoded.load(), static_cast<int>(Pods().size()) + 1)
      << "the informer did not read protobuf";
  EXPECT_EQ(proto_->reflector().decode_errors(), 0u);
  EXPECT_EQ(proto_->reflector().watch_lists(), 1u);
}

}  // namespace
}  // namespace dra::testing
