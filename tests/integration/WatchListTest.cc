// The reflector's streaming list against the real kube-apiserver (v1.37.2
// serves watch-list by default): the sync is made by one watch with
// sendInitialEvents=true, the cache equals a LIST, and the same stream goes
// on as the watch. With --watch-list=off the paged LIST path is used.
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>
#include <random>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using nlohmann::json;
using namespace std::chrono_literals;

const kube::ResourceType kSlices{"resource.k8s.io", "v1", "resourceslices", false, "ResourceSlice"};
constexpr int kSliceCount = 40;

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

class WatchListTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    static std::mt19937 rng(std::random_device{}());
    driver_ = "watchlist" + std::to_string(rng() % 1000000) + ".example.com";
    for (int i = 0; i < kSliceCount; ++i) {
      names_.push_back(driver_ + "-" + std::to_string(i));
      ASSERT_TRUE(client_->Create(kSlices, "", Slice(names_.back(), driver_)).ok());
    }
  }

  void TearDown() override {
    if (informer_) informer_->Stop();
    for (const auto& name : names_) (void)client_->Delete(kSlices.ItemPath("", name));
  }

  void StartInformer(kube::WatchListMode mode) {
    kube::ReflectorOptions options;
    options.field_selector = "spec.driver=" + driver_;
    options.page_size = 7;  // several pages on the LIST path
    options.watch_list = mode;
    options.metrics = metrics_;
    informer_ = std::make_unique<kube::Informer<MetaObject>>(client_, kSlices, MetaObject::FromJson,
                                                             options);
    informer_->Start();
    ASSERT_TRUE(informer_->WaitForSync(30s));
  }

  // name -> resourceVersion from a (consistent) LIST.
  std::map<std::string, std::string> Listed() {
    kube::ListOptions options;
    options.field_selector = "spec.driver=" + driver_;
    auto list = client_->List(kSlices, "", options);
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    std::map<std::string, std::string> state;
    if (!list.ok()) return state;
    for (const auto& item : (*list)["items"]) {
      state[item["metadata"]["name"]] = item["metadata"]["resourceVersion"];
    }
    return state;
  }

  std::map<std::string, std::string> Cached() {
    std::map<std::string, std::string> state;
    for (const auto& o : informer_->store().List()) state[o->meta.name] = o->meta.resource_version;
    return state;
  }

  void ExpectCacheEqualsList() {
    std::map<std::string, std::string> listed, cached;
    auto converged = WaitFor(
        "the cache to equal a LIST", 30s,
        [&] {
          listed = Listed();
          cached = Cached();
          return listed == cached;
        },
        [&] {
          return std::to_string(cached.size()) + " cached vs " + std::to_string(listed.size());
        });
    EXPECT_TRUE(converged.ok()) << converged.ToString();
  }

  double Syncs(const std::string& method) {
    double total = 0;
    for (const auto& family : metrics_->Collect()) {
      if (family.name != "reflector_syncs_total") continue;
      for (const auto& metric : family.metric) {
        for (const auto& label : metric.label) {
          if (label.name == "method" && label.value == method) total += metric.counter.value;
        }
      }
    }
    return total;
  }

  std::string driver_;
  std::vector<std::string> names_;
  std::shared_ptr<prometheus::Registry> metrics_ = std::make_shared<prometheus::Registry>();
  std::unique_ptr<kube::Informer<MetaObject>> informer_;
};

TEST_F(WatchListTest, AutoSyncsByWatchListAndTheStreamGoesOnAsTheWatch) {
  if (Skipped()) return;
  StartInformer(kube::WatchListMode::kAuto);
  const auto& reflector = informer_->reflector();
  EXPECT_EQ(reflector.watch_lists(), 1u) << "the apiserver serves watch-list: no fallback";
  EXPECT_EQ(reflector.lists(), 0u);
  EXPECT_EQ(reflector.watch_list_fallbacks(), 0u);
  EXPECT_EQ(Syncs("watch-list"), 1);
  EXPECT_EQ(Syncs("list"), 0);
  EXPECT_EQ(informer_->store().Size(), static_cast<size_t>(kSliceCount));
  ExpectCacheEqualsList();

  // Changes after the bookmark arrive on the same stream.
  names_.push_back(driver_ + "-late");
  ASSERT_TRUE(client_->Create(kSlices, "", Slice(names_.back(), driver_)).ok());
  ASSERT_TRUE(client_->Delete(kSlices.ItemPath("", names_[0])).ok());
  ExpectCacheEqualsList();
  EXPECT_EQ(reflector.watches(), 1u) << "one request made the sync and the watch";
  EXPECT_FALSE(reflector.last_resource_version().empty());
}

TEST_F(WatchListTest, OffSyncsByPagedList) {
  if (Skipped()) return;
  StartInformer(kube::WatchListMode::kOff);
  const auto& reflector = informer_->reflector();
  EXPECT_EQ(reflector.lists(), 1u);
  EXPECT_EQ(reflector.watch_lists(), 0u);
  EXPECT_EQ(Syncs("list"), 1);
  EXPECT_EQ(Syncs("watch-list"), 0);
  ExpectCacheEqualsList();
}

}  // namespace
}  // namespace dra::testing
