// The runtime's list+watch against the real kube-apiserver: bursts of
// creates, updates and deletes end with the cache equal to the server and
// every change delivered exactly once; an apiserver restart loses nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <random>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/CountingHandler.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using nlohmann::json;
using namespace std::chrono_literals;

const kube::ResourceType kSlices{"resource.k8s.io", "v1", "resourceslices", false, "ResourceSlice"};
const kube::ResourceType kPods{"", "v1", "pods", true, "Pod"};

using MetaCounter = CountingHandler<MetaObject>;

std::string RandomName(const std::string& prefix) {
  static std::mt19937 rng(std::random_device{}());
  return prefix + std::to_string(rng() % 1000000);
}

json Slice(const std::string& name, const std::string& driver) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"driver", driver},
            {"allNodes", true},
            {"pool", {{"name", name}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", json::array({{{"name", "dev-0"}}})}}}};
}

class InformerTest : public ClusterTest {
 protected:
  std::unique_ptr<kube::Informer<MetaObject>> StartInformer(const kube::ResourceType& type,
                                                            const std::string& field_selector) {
    kube::ReflectorOptions options;
    options.field_selector = field_selector;
    options.page_size = 7;  // several pages even for small bursts
    options.initial_backoff = 200ms;
    auto informer =
        std::make_unique<kube::Informer<MetaObject>>(client_, type, MetaObject::FromJson, options);
    informer->AddHandler(handler_);
    informer->Start();
    EXPECT_TRUE(informer->WaitForSync(30s));
    return informer;
  }

  // name -> resourceVersion as the server has it.
  std::map<std::string, std::string> ServerState(const kube::ResourceType& type,
                                                 const std::string& field_selector) {
    kube::ListOptions options;
    options.field_selector = field_selector;
    auto list = client_->List(type, "", options);
    std::map<std::string, std::string> state;
    if (!list.ok()) return state;
    for (const auto& item : (*list)["items"]) {
      std::string ns = item["metadata"].value("namespace", "");
      std::string key = ns.empty() ? item["metadata"]["name"].get<std::string>()
                                   : ns + "/" + item["metadata"]["name"].get<std::string>();
      state[key] = item["metadata"]["resourceVersion"];
    }
    return state;
  }

  static std::map<std::string, std::string> CacheState(kube::Informer<MetaObject>& informer) {
    std::map<std::string, std::string> state;
    for (const auto& o : informer.store().List()) state[o->meta.Key()] = o->meta.resource_version;
    return state;
  }

  void ExpectConverges(kube::Informer<MetaObject>& informer, const kube::ResourceType& type,
                       const std::string& selector) {
    std::map<std::string, std::string> server, cache;
    auto converged = WaitFor(
        "cache to equal the server", 30s,
        [&] {
          server = ServerState(type, selector);
          cache = CacheState(informer);
          return server == cache;
        },
        [&] {
          return std::to_string(cache.size()) + " cached vs " + std::to_string(server.size());
        });
    EXPECT_TRUE(converged.ok()) << converged.ToString();
  }

  // Handlers run after the store changed: once the cache has converged, the
  // last notifications may still be on their way.
  void WaitForNotifications(size_t adds, size_t updates, size_t deletes) {
    auto delivered = WaitFor(
        "every change delivered to the handler", 10s,
        [&] {
          return handler_->adds().size() >= adds && handler_->updates().size() >= updates &&
                 handler_->deletes().size() >= deletes;
        },
        [&] {
          return std::to_string(handler_->adds().size()) + " adds, " +
                 std::to_string(handler_->updates().size()) + " updates, " +
                 std::to_string(handler_->deletes().size()) + " deletes";
        });
    EXPECT_TRUE(delivered.ok()) << delivered.ToString();
  }

  std::shared_ptr<MetaCounter> handler_ = std::make_shared<MetaCounter>();
};

TEST_F(InformerTest, SliceBurstMirrorsServerAndDeliversEachChangeOnce) {
  std::string driver = RandomName("burst") + ".example.com";
  std::string selector = "spec.driver=" + driver;
  auto informer = StartInformer(kSlices, selector);
  EXPECT_EQ(informer->store().Size(), 0u);

  std::vector<std::string> names;
  for (int i = 0; i < 30; ++i) {
    names.push_back(driver + "-" + std::to_string(i));
    ASSERT_TRUE(client_->Create(kSlices, "", Slice(names.back(), driver)).ok());
  }
  for (int i = 0; i < 10; ++i) {
    auto patched = client_->Patch(kSlices.ItemPath("", names[i]), kube::PatchType::kMerge,
                                  R"({"metadata":{"labels":{"round":"two"}}})");
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }
  for (int i = 20; i < 30; ++i) ASSERT_TRUE(client_->Delete(kSlices.ItemPath("", names[i])).ok());

  ExpectConverges(*informer, kSlices, selector);
  WaitForNotifications(30, 10, 10);
  auto adds = handler_->adds(), updates = handler_->updates(), deletes = handler_->deletes();
  EXPECT_EQ(adds.size(), 30u);
  for (const auto& [key, n] : adds) EXPECT_EQ(n, 1) << key;
  EXPECT_EQ(updates.size(), 10u);
  for (const auto& [key, n] : updates) EXPECT_EQ(n, 1) << key;
  EXPECT_EQ(deletes.size(), 10u);
  EXPECT_EQ(informer->store().Get(names[0])->meta.labels,
            (std::vector<std::pair<std::string, std::string>>{{"round", "two"}}));
  EXPECT_EQ(informer->reflector().lists() + informer->reflector().watch_lists(), 1u)
      << "no relist was needed";
  for (int i = 0; i < 20; ++i) (void)client_->Delete(kSlices.ItemPath("", names[i]));
}

TEST_F(InformerTest, PodBurstInOneNamespaceMirrorsServer) {
  auto ns = cluster_->CreateTestNamespace("informer");
  ASSERT_TRUE(ns.ok()) << ns.status().ToString();
  std::string selector = "metadata.namespace=" + *ns;
  auto informer = StartInformer(kPods, selector);
  for (int i = 0; i < 40; ++i) {
    json pod = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", "p" + std::to_string(i)}, {"labels", {{"i", std::to_string(i)}}}}},
        {"spec",
         {{"automountServiceAccountToken", false},
          {"containers",
           json::array({{{"name", "c"}, {"image", "registry.k8s.io/pause:3.10"}}})}}}};
    ASSERT_TRUE(client_->Create(kPods, *ns, pod).ok());
  }
  kube::DeleteOptions now;
  now.grace_period_seconds = 0;
  for (int i = 0; i < 15; ++i)
    ASSERT_TRUE(client_->Delete(kPods.ItemPath(*ns, "p" + std::to_string(i)), now).ok());

  ExpectConverges(*informer, kPods, selector);
  WaitForNotifications(40, 0, 15);
  EXPECT_EQ(handler_->adds().size(), 40u);
  EXPECT_EQ(handler_->deletes().size(), 15u);
  for (const auto& [key, n] : handler_->adds()) EXPECT_EQ(n, 1) << key;
  cluster_->DeleteTestNamespace(*ns);
}

TEST_F(InformerTest, ApiServerRestartMidWatchLosesNoChange) {
  std::string driver = RandomName("restart") + ".example.com";
  std::string selector = "spec.driver=" + driver;
  auto informer = StartInformer(kSlices, selector);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        client_->Create(kSlices, "", Slice(driver + "-a" + std::to_string(i), driver)).ok());
  }
  ExpectConverges(*informer, kSlices, selector);

  ASSERT_TRUE(cluster_->RestartComponent("kube-apiserver").ok());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        client_->Create(kSlices, "", Slice(driver + "-b" + std::to_string(i), driver)).ok());
  }
  ASSERT_TRUE(client_->Delete(kSlices.ItemPath("", driver + "-a0")).ok());

  ExpectConverges(*informer, kSlices, selector);
  EXPECT_EQ(informer->store().Size(), 9u);
  for (const auto& [key, n] : handler_->adds()) EXPECT_EQ(n, 1) << key << " added twice";
  EXPECT_EQ(handler_->deletes().size(), 1u);
  EXPECT_GE(informer->reflector().watches(), 2u) << "the watch must have been re-established";
  for (const auto& name : informer->store().Keys())
    (void)client_->Delete(kSlices.ItemPath("", name));
  kube::Status settled = cluster_->WaitForControllersToCatchUp();
  EXPECT_TRUE(settled.ok()) << settled.ToString();
}

}  // namespace
}  // namespace dra::testing
