// The ResourceClaim projection from protobuf against the real
// kube-apiserver: claims of every request shape, one with an allocation and
// a reservation written through the status subresource, must project from
// the server's protobuf exactly as from its JSON, in a LIST and through an
// informer's watch-list. This proves ResourceClaimProtoDecoder's field
// numbers against v1.37.2's own encoder.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <utility>

#include "controller/api/ResourceClaim.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/cache/Informer.h"
#include "src/cache/JsonFields.h"
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

const kube::ResourceType& kClaims = api::ResourceClaim::kResource;

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
      updated["status"] = {{"allocation", Allocation()},
                           {"reservedFor",
                            {{{"apiGroup", "example.com"},
                              {"resource", "trainers"},
                              {"name", "p"},
                              {"uid", "p-1"}}}}};
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

// Both LISTs projected, by key; nullopt when they were not taken at the same
// resourceVersions (kube-controller-manager may still be writing a claim).
std::optional<std::pair<std::map<std::string, ResourceClaim>, std::map<std::string, ResourceClaim>>>
ListBoth(kube::RestClient& client, const std::string& ns) {
  auto proto_body = RawList(client, kClaims, ns, kube::ProtoEnvelope::kAccept);
  auto json_body = RawList(client, kClaims, ns, "application/json");
  EXPECT_TRUE(proto_body.ok() && json_body.ok());
  if (!proto_body.ok() || !json_body.ok()) return std::nullopt;
  EXPECT_TRUE(kube::ProtoEnvelope::IsProtobuf(*proto_body)) << "the server answered JSON";
  auto page = kube::ProtoListPage::Parse(*proto_body);
  EXPECT_TRUE(page.ok()) << page.status().ToString();
  if (!page.ok()) return std::nullopt;
  std::map<std::string, ResourceClaim> from_proto, from_json;
  for (std::string_view item : page->items) {
    auto claim = ResourceClaim::FromProto(item);
    EXPECT_TRUE(claim.ok()) << claim.status().ToString();
    if (claim.ok()) from_proto.emplace(claim->meta.Key(), std::move(*claim));
  }
  kube::WatchDecoder decoder;
  auto doc = decoder.ParseDocument(*json_body);
  simdjson::dom::array items;
  EXPECT_TRUE(doc.ok() && (*doc)["items"].get(items) == simdjson::SUCCESS);
  if (!doc.ok()) return std::nullopt;
  for (simdjson::dom::element item : items) {
    auto claim = ResourceClaim::FromJson(item);
    EXPECT_TRUE(claim.ok()) << claim.status().ToString();
    if (claim.ok()) from_json.emplace(claim->meta.Key(), std::move(*claim));
  }
  if (page->resource_version !=
      std::string(kube::json::StringOr(kube::json::Field(*doc, "metadata"), "resourceVersion"))) {
    return std::nullopt;
  }
  return std::make_pair(std::move(from_json), std::move(from_proto));
}

TEST_F(ClaimProtobufTest, ListBodiesProjectAlikeInBothEncodings) {
  std::optional<
      std::pair<std::map<std::string, ResourceClaim>, std::map<std::string, ResourceClaim>>>
      lists;
  ASSERT_TRUE(WaitFor("two LISTs at the same resourceVersion", 30s, [&] {
                lists = ListBoth(*client_, ns_);
                return lists.has_value() || HasFailure();
              }).ok());
  ASSERT_FALSE(HasFailure());
  const auto& [from_json, from_proto] = *lists;
  ASSERT_EQ(from_json.size(), Claims().size());
  ASSERT_EQ(from_proto.size(), Claims().size());
  for (const auto& [key, claim] : from_json) {
    SCOPED_TRACE(key);
    ASSERT_EQ(from_proto.count(key), 1u);
    api::testing::ExpectSameClaim(claim, from_proto.at(key));
  }
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
  auto same_versions = [&] {
    auto claims = json_->store().List();
    if (claims.size() != Claims().size() + 1 || proto_->store().Size() != claims.size()) {
      return false;
    }
    for (const auto& claim : claims) {
      auto other = proto_->store().Get(claim->meta.Key());
      if (!other || other->meta.resource_version != claim->meta.resource_version) return false;
    }
    return true;
  };
  ASSERT_TRUE(WaitFor("both caches to hold the same versions", 30s, same_versions).ok());
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
