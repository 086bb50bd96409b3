// The ResourceClaim projection from protobuf against the real
// kube-apiserver: claims of every request shape, one with an allocation and
// a reservation written through the status subresource, must project from
// the server's protobuf exactly as from its JSON, in a LIST and through an
// informer's watch-list. This proves ResourceClaimProtoDecoder's field
// numbers against v1.37.2's own encoder.
#include <gtest/gtest.h>

#include <map>

#include "controller/api/ResourceClaim.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/cache/Informer.h"
#include "src/cache/ProtoListPage.h"
#include "src/cache/WatchDecoder.h"
#include "src/proto/ProtoEnvelope.h"
#include "tests/controller/api/ResourceClaimEquality.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/RawList.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using api::ResourceClaim;
using nlohmann::json;
using namespace std::chrono_literals;

const kube::ResourceType& kClaims = inventory::DraResourceTypes::kResourceClaims;

json Claim(const std::string& name, json requests, json annotations = json::object()) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", name}, {"annotations", annotations}}},
          {"spec", {{"devices", {{"requests", requests}}}}}};
}

std::vector<json> Claims() {
  json exact = {
      {"name", "gpu"},
      {"exactly",
       {{"deviceClassName", "gpu.example.com"},
        {"count", 2},
        {"selectors", {{{"cel", {{"expression", "device.driver == 'gpu.example.com'"}}}}}},
        {"tolerations",
         {{{"key", "example.com/unhealthy"},
           {"operator", "Exists"},
           {"effect", "NoExecute"},
           {"tolerationSeconds", 30}}}}}}};
  json all = {{"name", "all"},
              {"exactly", {{"deviceClassName", "gpu.example.com"}, {"allocationMode", "All"}}}};
  json first = {{"name", "any"},
                {"firstAvailable",
                 {{{"name", "big"}, {"deviceClassName", "big.example.com"}},
                  {{"name", "small"}, {"deviceClassName", "gpu.example.com"}, {"count", 3}}}}};
  return {
      Claim("exact", {exact},
            {{"resource.kubernetes.io/extended-resource-claim", "true"},
             {"resource.kubernetes.io/pod-claim-name", "gpu"}}),
      Claim("all", {all}),
      Claim("first-available", {first, exact}),
      Claim("allocated", {exact}),
  };
}

json Allocation() {
  json result = {
      {"request", "gpu"}, {"driver", "gpu.example.com"}, {"pool", "node-1"}, {"device", "gpu-0"}};
  json second = result;
  second["device"] = "gpu-1";
  second["tolerations"] = {{{"key", "example.com/unhealthy"}, {"operator", "Exists"}}};
  return {{"devices", {{"results", {result, second}}}},
          {"nodeSelector",
           {{"nodeSelectorTerms",
             {{{"matchFields",
                {{{"key", "metadata.name"}, {"operator", "In"}, {"values", {"node-1"}}}}}}}}}}};
}

class ClaimProtobufTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto ns = cluster_->CreateTestNamespace("claimproto");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    for (const auto& claim : Claims()) {
      auto created = client_->Create(kClaims, ns_, claim);
      ASSERT_TRUE(created.ok()) << created.status().ToString();
      if (claim["metadata"]["name"] != "allocated") continue;
      json updated = *created;
      updated["status"] = {
          {"allocation", Allocation()},
          {"reservedFor", {{{"resource", "pods"}, {"name", "p"}, {"uid", "p-1"}}}}};
      auto status = client_->Update(kClaims.ItemPath(ns_, "allocated") + "/status", updated);
      ASSERT_TRUE(status.ok()) << status.status().ToString();
    }
  }

  void TearDown() override {
    for (auto* informer : {json_.get(), proto_.get()}) {
      if (informer) informer->Stop();
    }
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  std::unique_ptr<kube::Informer<ResourceClaim>> StartInformer(
      kube::ObjectDecoder<ResourceClaim> decoder) {
    kube::ReflectorOptions options;
    options.field_selector = "metadata.namespace=" + ns_;
    auto informer =
        std::make_unique<kube::Informer<ResourceClaim>>(client_, kClaims, decoder, options);
    informer->Start();
    return informer;
  }

  std::string ns_;
  std::unique_ptr<kube::Informer<ResourceClaim>> json_;
  std::unique_ptr<kube::Informer<ResourceClaim>> proto_;
};

TEST_F(ClaimProtobufTest, ListBodiesProjectAlikeInBothEncodings) {
  auto proto_body = RawList(*client_, kClaims, ns_, kube::ProtoEnvelope::kAccept);
  ASSERT_TRUE(proto_body.ok()) << proto_body.status().ToString();
  ASSERT_TRUE(kube::ProtoEnvelope::IsProtobuf(*proto_body)) << "the server answered JSON";
  auto page = kube::ProtoListPage::Parse(*proto_body);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  std::map<std::string, ResourceClaim> from_proto;
  for (std::string_view item : page->items) {
    auto claim = ResourceClaim::FromProto(item);
    ASSERT_TRUE(claim.ok()) << claim.status().ToString();
    from_proto.emplace(claim->meta.Key(), std::move(*claim));
  }
  auto json_body = RawList(*client_, kClaims, ns_, "application/json");
  ASSERT_TRUE(json_body.ok());
  kube::WatchDecoder decoder;
  auto doc = decoder.ParseDocument(*json_body);
  ASSERT_TRUE(doc.ok());
  simdjson::dom::array items;
  ASSERT_EQ((*doc)["items"].get(items), simdjson::SUCCESS);
  size_t compared = 0;
  for (simdjson::dom::element item : items) {
    auto claim = ResourceClaim::FromJson(item);
    ASSERT_TRUE(claim.ok()) << claim.status().ToString();
    auto it = from_proto.find(claim->meta.Key());
    ASSERT_NE(it, from_proto.end()) << claim->meta.Key();
    SCOPED_TRACE(claim->meta.Key());
    api::testing::ExpectSameClaim(*claim, it->second);
    ++compared;
  }
  EXPECT_EQ(compared, Claims().size());
  const auto& allocated = from_proto.at(ns_ + "/allocated");
  EXPECT_TRUE(allocated.allocated);
  EXPECT_EQ(allocated.results.size(), 2u);
  EXPECT_EQ(allocated.allocated_node_name, "node-1");
  EXPECT_EQ(allocated.reserved_for.size(), 1u);
}

TEST_F(ClaimProtobufTest, AProtobufInformerCachesWhatAJsonOneDoes) {
  proto_ = StartInformer(ResourceClaim::Decoder());
  json_ = StartInformer(ResourceClaim::FromJson);
  ASSERT_TRUE(proto_->WaitForSync(30s));
  ASSERT_TRUE(json_->WaitForSync(30s));
  json late = Claims()[1];
  late["metadata"]["name"] = "late";
  ASSERT_TRUE(client_->Create(kClaims, ns_, late).ok());
  ASSERT_TRUE(WaitFor("the late claim in both caches", 30s, [&] {
                return json_->store().Get(ns_ + "/late") && proto_->store().Get(ns_ + "/late");
              }).ok());
  ASSERT_EQ(json_->store().Size(), Claims().size() + 1);
  for (const auto& claim : json_->store().List()) {
    SCOPED_TRACE(claim->meta.Key());
    auto other = proto_->store().Get(claim->meta.Key());
    ASSERT_NE(other, nullptr);
    api::testing::ExpectSameClaim(*claim, *other);
  }
  EXPECT_EQ(proto_->reflector().decode_errors(), 0u);
}

}  // namespace
}  // namespace dra::testing
