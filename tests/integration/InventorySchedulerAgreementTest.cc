// The inventory's free-device counts agree with the real scheduler: fill the
// 80Gi GPUs of one node with extended-resource Pods that need >= 64Gi, see
// the next such Pod stay unschedulable while the inventory reports 0 free on
// every node, then free one GPU and see both sides agree again.
#include <gtest/gtest.h>

#include <set>

#include "controller/inventory/Inventory.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/InventoryClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "inv-big.example.com";
constexpr const char* kResource = "example.com/inv-big-gpu";
const std::vector<std::string> kFleet{"inv-a:2:24Gi:gpu-inv-24g", "inv-b:2:80Gi:gpu-inv-80g"};

std::string ClassManifest() {
  return DeviceClassManifest(
      kClass, kResource,
      "device.driver == \"gpu.example.com\" && "
      "device.attributes[\"gpu.example.com\"].model.startsWith(\"gpu-inv-\") && "
      "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"64Gi\")) >= 0");
}

std::string PodManifest(const std::string& name, const std::string& ns) {
  return ExtendedResourcePodManifest(name, ns, kResource);
}

class InventorySchedulerAgreementTest : public InventoryClusterTest {
 protected:
  void SetUp() override {
    InventoryClusterTest::SetUp();
    if (Skipped()) return;
    ASSERT_TRUE(ApplyFleet(kFleet));
    ASSERT_TRUE(ApplyOwned("deviceclass", kClass, ClassManifest()));
    ASSERT_TRUE(CreateNamespace("inventory"));
    ASSERT_TRUE(StartInventory());
  }

  // Waits until the inventory's counts for the class on `node` satisfy `check`.
  ::testing::AssertionResult CountsReach(const std::string& what, const std::string& node,
                                         std::function<bool(const inventory::DeviceCounts&)> check,
                                         std::chrono::seconds deadline = 30s) {
    inventory::DeviceCounts counts;
    auto reached = WaitFor(
        what, deadline,
        [&] {
          counts = inventory_.Count(kClass, node);
          return check(counts);
        },
        [&] {
          return "total=" + std::to_string(counts.total) + " free=" + std::to_string(counts.free) +
                 " allocated=" + std::to_string(counts.allocated);
        });
    if (reached.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << reached.ToString();
  }

  // Pods the inventory says hold the class's devices on inv-b.
  std::set<std::string> PodsOnInvB() const {
    std::set<std::string> users;
    for (const auto& device : inventory_.DevicesMatching(kClass, "inv-b")) {
      for (const auto& pod : inventory_.PodsUsing(device.key)) users.insert(pod.name);
    }
    return users;
  }

  std::set<std::string> NodesWithDevices() const {
    std::set<std::string> nodes;
    for (const auto& device : inventory_.Devices()) {
      if (!device.node_name.empty()) nodes.insert(device.node_name);
    }
    return nodes;
  }
};

TEST_F(InventorySchedulerAgreementTest, FreeCountsMatchWhereTheSchedulerCanPlacePods) {
  ASSERT_TRUE(CountsReach("both 80Gi GPUs of inv-b free", "inv-b",
                          [](const auto& c) { return c.total == 2 && c.free == 2; }));
  EXPECT_EQ(inventory_.Count(kClass, "inv-a").total, 0) << "24Gi GPUs must not match";

  ASSERT_TRUE(cluster_->Create(PodManifest("big-0", ns_)).ok());
  ASSERT_TRUE(cluster_->Create(PodManifest("big-1", ns_)).ok());
  for (const std::string name : {"big-0", "big-1"}) {
    auto bound = WaitFor("pod " + name + " bound", 60s, [&] { return !NodeOf(name).empty(); });
    ASSERT_TRUE(bound.ok()) << bound.ToString();
    EXPECT_EQ(NodeOf(name), "inv-b");
  }
  ASSERT_TRUE(CountsReach("inv-b full", "inv-b",
                          [](const auto& c) { return c.allocated == 2 && c.free == 0; }));
  EXPECT_EQ(PodsOnInvB(), (std::set<std::string>{"big-0", "big-1"}));

  ASSERT_TRUE(cluster_->Create(PodManifest("big-2", ns_)).ok());
  json pending;
  auto unschedulable = WaitFor(
      "big-2 reported unschedulable", 60s,
      [&] {
        pending = Pod("big-2");
        return IsUnschedulable(pending);
      },
      [&] { return pending.value("status", json()).dump(); });
  ASSERT_TRUE(unschedulable.ok()) << unschedulable.ToString();
  EXPECT_EQ(NodeOf("big-2"), "");
  for (const auto& node : NodesWithDevices()) {
    EXPECT_EQ(inventory_.Count(kClass, node).free, 0) << "node " << node;
  }
  EXPECT_EQ(inventory_.Count(kClass).free, 0);

  // Free one GPU: the scheduler places big-2 there, and the inventory follows
  // (big-0's device free, then big-2's). Releasing big-0's claim is
  // kube-controller-manager's work, which can lag for a while after an
  // earlier test restarted kube-apiserver; hence 90 s.
  ASSERT_TRUE(cluster_
                  ->Kubectl({"delete", "pod", "big-0", "-n", ns_, "--grace-period=0", "--force",
                             "--wait=false"})
                  .ok());
  auto placed =
      WaitFor("big-2 bound once a GPU is free", 90s, [&] { return !NodeOf("big-2").empty(); });
  ASSERT_TRUE(placed.ok()) << placed.ToString();
  EXPECT_EQ(NodeOf("big-2"), "inv-b");
  auto settled = WaitFor("the inventory to show big-1 and big-2 on inv-b", 30s, [&] {
    return PodsOnInvB() == std::set<std::string>{"big-1", "big-2"};
  });
  EXPECT_TRUE(settled.ok()) << settled.ToString();
  EXPECT_EQ(inventory_.Count(kClass, "inv-b").free, 0);
}

}  // namespace
}  // namespace dra::testing
