// Objects that kube-apiserver accepts but that are hostile to a decoder: a
// ResourceClaim whose opaque parameters nest 1,100 levels deep (the
// apiserver allows 10,000; simdjson's default stops at 1,024). The informer
// must sync with it, keep seeing the other claims, and never loop on it.
#include <gtest/gtest.h>

#include <thread>

#include "controller/api/ResourceClaim.h"
#include "src/cache/Informer.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

// `depth` levels of {"a":...} (6 bytes each: opaque parameters are capped at 10 KiB).
std::string NestedObjects(int depth) {
  std::string out;
  for (int i = 0; i < depth; ++i) out += R"({"a":)";
  out += "1";
  out.append(static_cast<size_t>(depth), '}');
  return out;
}

// {"a":[[...]]}: 2 bytes a level, the deepest that fits the 10 KiB cap.
std::string NestedArrays(int depth) {
  return R"({"a":)" + std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']') + "}";
}

std::string Claim(const std::string& ns, const std::string& name, const std::string& parameters) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":")" +
         name + R"(","namespace":")" + ns +
         R"("},"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}}],)"
         R"("config":[{"requests":["gpu"],"opaque":{"driver":"gpu.example.com","parameters":)" +
         parameters + "}}]}}}";
}

class HostileObjectTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto ns = cluster_->CreateTestNamespace("hostile");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    if (informer_) informer_->Stop();
    if (cluster_ && !ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  // POSTs the raw JSON: nothing on the client side parses the deep object.
  kube::Status CreateClaim(const std::string& name, const std::string& parameters) {
    kube::HttpRequest request;
    request.method = "POST";
    request.path = api::ResourceClaim::kResource.CollectionPath(ns_);
    request.body = Claim(ns_, name, parameters);
    request.content_type = "application/json";
    auto response = client_->Do(request);
    return response.ok() ? kube::Status::Ok() : response.status();
  }

  void StartInformer(kube::ObjectDecoder<api::ResourceClaim> decoder) {
    kube::ReflectorOptions options;
    options.field_selector = "metadata.namespace=" + ns_;
    options.initial_backoff = 200ms;
    informer_ = std::make_unique<kube::Informer<api::ResourceClaim>>(
        client_, api::ResourceClaim::kResource, std::move(decoder), options);
    informer_->Start();
  }

  bool Cached(const std::string& name) const {
    return informer_->store().Get(ns_ + "/" + name) != nullptr;
  }

  void ExpectDeepClaimsAreRead(kube::ObjectDecoder<api::ResourceClaim> decoder);

  std::string ns_;
  std::unique_ptr<kube::Informer<api::ResourceClaim>> informer_;
};

void HostileObjectTest::ExpectDeepClaimsAreRead(kube::ObjectDecoder<api::ResourceClaim> decoder) {
  ASSERT_TRUE(CreateClaim("plain-0", "{}").ok());
  kube::Status deep = CreateClaim("deep-1100", NestedObjects(1100));
  ASSERT_TRUE(deep.ok()) << "kube-apiserver accepts 1,100 levels: " << deep.ToString();
  kube::Status deeper = CreateClaim("deep-5000", NestedArrays(5000));
  ASSERT_TRUE(deeper.ok()) << "kube-apiserver accepts 5,000 levels: " << deeper.ToString();

  StartInformer(std::move(decoder));
  ASSERT_TRUE(informer_->WaitForSync(30s)) << "a deep claim must not keep the LIST failing";
  EXPECT_TRUE(Cached("plain-0"));
  EXPECT_TRUE(Cached("deep-1100"));
  EXPECT_TRUE(Cached("deep-5000"));

  // Created while the watch runs: delivered once, and later events still flow.
  ASSERT_TRUE(CreateClaim("deep-live", NestedObjects(1100)).ok());
  ASSERT_TRUE(CreateClaim("plain-1", "{}").ok());
  EXPECT_TRUE(WaitFor("the claims created during the watch", 30s, [&] {
                return Cached("deep-live") && Cached("plain-1");
              }).ok());
  EXPECT_EQ(informer_->reflector().lists() + informer_->reflector().watch_lists(), 1u)
      << "no relist: the watch went on past the event";
  EXPECT_EQ(informer_->reflector().decode_errors(), 0u);
  auto watches = informer_->reflector().watches();
  std::this_thread::sleep_for(2s);
  EXPECT_EQ(informer_->reflector().watches(), watches) << "the watch is not being re-opened";
}

TEST_F(HostileObjectTest, DeeplyNestedClaimParametersNeitherBlockTheListNorLoopTheWatch) {
  ExpectDeepClaimsAreRead(api::ResourceClaim::FromJson);
}

// The controller reads claims in protobuf, where the parameters are opaque
// bytes: the same claims must be read there too.
TEST_F(HostileObjectTest, DeeplyNestedClaimParametersAreReadInProtobufToo) {
  ExpectDeepClaimsAreRead(api::ResourceClaim::Decoder());
}

}  // namespace
}  // namespace dra::testing
