// Devices behind a ResourceSlice nodeSelector: the real scheduler places
// Pods only on the nodes whose labels the selector picks, and the
// inventory's per-node free counts say the same, down to 0 when the shared
// devices are used up; after a relabel both follow the new labels.
#include <gtest/gtest.h>

#include "tests/support/FleetManifests.h"
#include "tests/support/InventoryClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "np-gpu.example.com";
constexpr const char* kResource = "example.com/np-gpu";
constexpr const char* kLabel = "np.example.com/gpu";
constexpr const char* kSlice = "np-rack-gpu.example.com";
constexpr int kDevices = 3;
// Three nodes without node-local GPUs; the rack's GPUs reach them by label.
const std::vector<std::string> kFleet{"np-1:0:80Gi:np-none", "np-2:0:80Gi:np-none",
                                      "np-3:0:80Gi:np-none"};
const std::vector<std::string> kNodes{"np-1", "np-2", "np-3"};

std::string RackSliceManifest() {
  json devices = json::array();
  for (int i = 0; i < kDevices; ++i) {
    devices.push_back({{"name", "gpu-" + std::to_string(i)},
                       {"attributes", {{"model", {{"string", "gpu-np-rack"}}}}},
                       {"capacity", {{"memory", {{"value", "80Gi"}}}}}});
  }
  json term = {{"matchExpressions",
                json::array({{{"key", kLabel}, {"operator", "In"}, {"values", {"yes"}}}})}};
  json slice = {{"apiVersion", "resource.k8s.io/v1"},
                {"kind", "ResourceSlice"},
                {"metadata", {{"name", kSlice}}},
                {"spec",
                 {{"driver", "gpu.example.com"},
                  {"pool", {{"name", "np-rack"}, {"generation", 1}, {"resourceSliceCount", 1}}},
                  {"nodeSelector", {{"nodeSelectorTerms", json::array({term})}}},
                  {"devices", devices}}}};
  return slice.dump();
}

class NodePlacementTest : public InventoryClusterTest {
 protected:
  void SetUp() override {
    InventoryClusterTest::SetUp();
    if (Skipped()) return;
    ASSERT_TRUE(ApplyFleet(kFleet));
    Label({{"np-1", "yes"}, {"np-2", "yes"}, {"np-3", "no"}});
    ASSERT_TRUE(ApplyOwned("resourceslice", kSlice, RackSliceManifest()));
    ASSERT_TRUE(
        ApplyOwned("deviceclass", kClass,
                   DeviceClassManifest(kClass, kResource, FakeGpuModelSelector("gpu-np-rack"))));
    ASSERT_TRUE(CreateNamespace("placement"));
    ASSERT_TRUE(StartInventory());
  }

  void Label(const std::vector<std::pair<std::string, std::string>>& values) {
    for (const auto& [node, value] : values) {
      auto labeled = cluster_->Kubectl(
          {"label", "node", node, std::string(kLabel) + "=" + value, "--overwrite"});
      ASSERT_TRUE(labeled.ok()) << labeled.status().ToString();
    }
  }

  // "np-1=F np-2=F np-3=F": the inventory's free devices of the class per node.
  std::string FreePerNode() const {
    std::string out;
    for (const auto& node : kNodes) {
      if (!out.empty()) out += ' ';
      out += node + "=" + std::to_string(inventory_.Count(kClass, node).free);
    }
    return out;
  }
  ::testing::AssertionResult FreeReaches(const std::string& want) {
    std::string seen;
    auto reached = WaitFor(
        "free per node " + want, 30s,
        [&] {
          seen = FreePerNode();
          return seen == want;
        },
        [&] { return seen; });
    if (reached.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << reached.ToString();
  }
};

TEST_F(NodePlacementTest, PodsLandOnlyOnPickedNodesAndFreeCountsFollowTheScheduler) {
  ASSERT_TRUE(FreeReaches("np-1=3 np-2=3 np-3=0"));
  auto per_node = inventory_.CountPerNode(kClass);
  EXPECT_EQ(per_node.size(), 2u);
  EXPECT_EQ(per_node["np-1"].total, kDevices);

  // Fill: each Pod takes one of the rack's GPUs, from np-1 or np-2 only.
  for (int i = 0; i < kDevices; ++i) {
    std::string name = "np-" + std::to_string(i);
    ASSERT_TRUE(cluster_->Create(ExtendedResourcePodManifest(name, ns_, kResource)).ok());
    auto bound = WaitFor("pod " + name + " bound", 60s, [&] { return !NodeOf(name).empty(); });
    ASSERT_TRUE(bound.ok()) << bound.ToString();
    EXPECT_TRUE(NodeOf(name) == "np-1" || NodeOf(name) == "np-2") << NodeOf(name);
    int free = kDevices - i - 1;
    ASSERT_TRUE(
        FreeReaches("np-1=" + std::to_string(free) + " np-2=" + std::to_string(free) + " np-3=0"));
  }

  // The scheduler refuses the next one; the inventory has 0 free everywhere.
  ASSERT_TRUE(cluster_->Create(ExtendedResourcePodManifest("np-extra", ns_, kResource)).ok());
  auto refused =
      WaitFor("np-extra reported unschedulable", 60s, [&] { return Unschedulable("np-extra"); });
  ASSERT_TRUE(refused.ok()) << refused.ToString();
  EXPECT_EQ(NodeOf("np-extra"), "");
  EXPECT_EQ(FreePerNode(), "np-1=0 np-2=0 np-3=0");

  // Move the label to np-3 only and free a GPU: the scheduler puts the
  // waiting Pod on np-3, and the inventory counts the rack there alone.
  Label({{"np-1", "no"}, {"np-2", "no"}, {"np-3", "yes"}});
  auto moved = WaitFor("the inventory to see the relabel", 30s, [&] {
    return inventory_.Count(kClass, "np-3").total == kDevices &&
           inventory_.Count(kClass, "np-1").total == 0;
  });
  ASSERT_TRUE(moved.ok()) << moved.ToString();
  ASSERT_TRUE(cluster_
                  ->Kubectl({"delete", "pod", "np-0", "-n", ns_, "--grace-period=0", "--force",
                             "--wait=false"})
                  .ok());
  auto placed = WaitFor("np-extra bound once a GPU is free", 90s,
                        [&] { return !NodeOf("np-extra").empty(); });
  ASSERT_TRUE(placed.ok()) << placed.ToString();
  EXPECT_EQ(NodeOf("np-extra"), "np-3");
  EXPECT_TRUE(FreeReaches("np-1=0 np-2=0 np-3=0"));
}

}  // namespace
}  // namespace dra::testing
