#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <functional>
#include <thread>

#include "controller/api/NodeView.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/Tolerations.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::DeviceCounts;
using inventory::DeviceKey;
using inventory::Inventory;

constexpr const char* kAnyGpu = R"(device.driver == "gpu.example.com")";
constexpr const char* kBigGpu =
    R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0)";

DeviceKey Key(const std::string& pool, const std::string& device) {
  return {"gpu.example.com", pool, device};
}

// The seed cluster: node-a with two 24Gi GPUs, node-b with two 80Gi GPUs.
class InventoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplyClass(Class("gpu", {kAnyGpu}));
    inventory_.ApplyClass(Class("big-gpu", {kAnyGpu, kBigGpu}));
    inventory_.ApplySlice(
        Slice("node-a-gpus", "node-a", {Gpu("gpu-0", 24, "gpu-24g"), Gpu("gpu-1", 24, "gpu-24g")}));
    inventory_.ApplySlice(
        Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-1", 80, "gpu-80g")}));
  }

  std::vector<std::string> Keys() const {
    std::vector<std::string> keys;
    for (const auto& device : inventory_.Devices()) keys.push_back(device.key.ToString());
    return keys;
  }

  Inventory inventory_;
};

TEST_F(InventoryTest, DevicesAreKeyedByDriverPoolAndNameWithTheirNode) {
  EXPECT_EQ(Keys(), (std::vector<std::string>{
                        "gpu.example.com/node-a/gpu-0", "gpu.example.com/node-a/gpu-1",
                        "gpu.example.com/node-b/gpu-0", "gpu.example.com/node-b/gpu-1"}));
  auto device = inventory_.Find(Key("node-b", "gpu-1"));
  ASSERT_TRUE(device.has_value());
  EXPECT_EQ(device->node_name, "node-b");
  EXPECT_EQ(device->slice_name, "node-b-gpus");
  EXPECT_TRUE(device->pool_complete);
  EXPECT_FALSE(inventory_.Find(Key("node-c", "gpu-0")).has_value());
}

// What the metrics' RefreshTrigger relies on: every kind of change moves the
// count once it is applied, and reads do not.
TEST_F(InventoryTest, EveryAppliedChangeMovesTheChangeCount) {
  uint64_t before = inventory_.change_count();
  (void)inventory_.Count("gpu");
  (void)inventory_.Devices();
  EXPECT_EQ(inventory_.change_count(), before);
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = "node-a";
  std::vector<std::function<void()>> changes = {
      [&] {
        inventory_.ApplyClaim(Claim("default", "c", {{"node-a", "gpu-0"}}));
      },
      [&] { inventory_.RemoveClaim(*Claim("default", "c", {})); },
      [&] {
        inventory_.ApplyTaintRule(TaintRule("r", "node-a", "gpu-0", api::TaintEffect::kNoSchedule));
      },
      [&] {
        inventory_.RemoveTaintRule(
            *TaintRule("r", "node-a", "gpu-0", api::TaintEffect::kNoSchedule));
      },
      [&] { inventory_.ApplyClass(Class("other", {kAnyGpu})); },
      [&] { inventory_.RemoveClass(*Class("other", {})); },
      [&] { inventory_.ApplySlice(Slice("node-c-gpus", "node-c", {Gpu("gpu-0", 24, "m")})); },
      [&] { inventory_.RemoveSlice(*Slice("node-c-gpus", "node-c", {})); },
      [&] { inventory_.ApplyNode(node); },
      [&] { inventory_.RemoveNode(*node); },
      [&] { inventory_.RecomputeAllMatches(); }};
  for (size_t i = 0; i < changes.size(); ++i) {
    uint64_t last = inventory_.change_count();
    changes[i]();
    EXPECT_GT(inventory_.change_count(), last) << "change " << i;
  }
}

// A kubelet's status update leaves the labels as they were: nothing to re-render.
TEST_F(InventoryTest, ANodeUpdateWithTheSameLabelsDoesNotMoveTheChangeCount) {
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = "node-a";
  node->meta.labels = {{"zone", "a"}};
  inventory_.ApplyNode(node);
  uint64_t before = inventory_.change_count();
  auto same = std::make_shared<api::NodeView>(*node);
  same->meta.resource_version = "2";
  inventory_.ApplyNode(same);
  EXPECT_EQ(inventory_.change_count(), before);
  auto relabelled = std::make_shared<api::NodeView>(*node);
  relabelled->meta.labels = {{"zone", "b"}};
  inventory_.ApplyNode(relabelled);
  EXPECT_GT(inventory_.change_count(), before);
}

TEST_F(InventoryTest, CountsMatchingDevicesPerNode) {
  EXPECT_EQ(inventory_.Count("gpu").total, 4);
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 2);
  EXPECT_EQ(inventory_.Count("big-gpu").total, 2);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-a").total, 0);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").free, 2);
  EXPECT_EQ(inventory_.Count("no-such-class").total, 0);
}

TEST_F(InventoryTest, AnyDeviceMatchesAgreesWithTheCount) {
  inventory_.ApplyClass(Class(
      "huge-gpu",
      {kAnyGpu, R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("1Ti")) >= 0)"}));
  for (const char* name : {"gpu", "big-gpu", "huge-gpu", "no-such-class"}) {
    EXPECT_EQ(inventory_.AnyDeviceMatches(name), inventory_.Count(name).total > 0) << name;
  }
  EXPECT_TRUE(inventory_.AnyDeviceMatches("big-gpu"));
  EXPECT_FALSE(inventory_.AnyDeviceMatches("huge-gpu"));
  inventory_.RemoveSlice(*Slice("node-b-gpus", "node-b", {}));
  EXPECT_FALSE(inventory_.AnyDeviceMatches("big-gpu")) << "its only devices were withdrawn";
}

TEST_F(InventoryTest, ClassesMatchingADevice) {
  EXPECT_EQ(inventory_.ClassesMatching(Key("node-b", "gpu-0")),
            (std::vector<std::string>{"big-gpu", "gpu"}));
  EXPECT_EQ(inventory_.ClassesMatching(Key("node-a", "gpu-0")), (std::vector<std::string>{"gpu"}));
  EXPECT_TRUE(inventory_.ClassesMatching(Key("node-z", "gpu-0")).empty());
}

TEST_F(InventoryTest, UnqualifiedAttributesBelongToTheDriverDomain) {
  inventory_.ApplyClass(
      Class("model-80g", {R"(device.attributes["gpu.example.com"].model == "gpu-80g")"}));
  inventory_.ApplyClass(Class("new-driver", {R"(device.attributes["gpu.example.com"].driverVersion)"
                                             R"(.isGreaterThan(semver("1.0.0")))"}));
  EXPECT_EQ(inventory_.Count("model-80g").total, 2);
  EXPECT_EQ(inventory_.Count("model-80g", "node-b").total, 2);
  EXPECT_EQ(inventory_.Count("new-driver").total, 4);
}

TEST_F(InventoryTest, PoolGenerationBumpReplacesTheOldDevices) {
  // The driver republishes node-a as generation 2 in a new slice; the old
  // generation-1 slice lingers until it is deleted.
  inventory_.ApplySlice(Slice("node-a-gpus-v2", "node-a", {Gpu("gpu-7", 24, "gpu-24g")}, 2));
  EXPECT_EQ(inventory_.Count("gpu", "node-a").total, 1);
  EXPECT_TRUE(inventory_.Find(Key("node-a", "gpu-7")).has_value());
  EXPECT_FALSE(inventory_.Find(Key("node-a", "gpu-0")).has_value());
  auto pools = inventory_.Pools();
  ASSERT_EQ(pools.size(), 2u);
  EXPECT_EQ(pools[0].generation, 2);
  EXPECT_EQ(pools[0].stale_slices, 1);

  // Deleting the new generation brings the older one back, as the scheduler would.
  inventory_.RemoveSlice(*Slice("node-a-gpus-v2", "node-a", {}));
  EXPECT_EQ(inventory_.Count("gpu", "node-a").total, 2);
  EXPECT_TRUE(inventory_.Find(Key("node-a", "gpu-0")).has_value());
}

TEST_F(InventoryTest, IncompletePoolIsFlaggedAndNotFree) {
  inventory_.ApplySlice(Slice("big-pool-1", "node-c", {Gpu("gpu-0", 80, "gpu-80g")}, 1, 2, "big"));
  DeviceCounts counts = inventory_.Count("gpu", "node-c");
  EXPECT_EQ(counts.total, 1);
  EXPECT_EQ(counts.incomplete_pool, 1);
  EXPECT_EQ(counts.free, 0);
  EXPECT_FALSE(inventory_.Find(Key("big", "gpu-0"))->pool_complete);

  inventory_.ApplySlice(Slice("big-pool-2", "node-c", {Gpu("gpu-1", 80, "gpu-80g")}, 1, 2, "big"));
  counts = inventory_.Count("gpu", "node-c");
  EXPECT_EQ(counts.total, 2);
  EXPECT_EQ(counts.incomplete_pool, 0);
  EXPECT_EQ(counts.free, 2);
}

TEST_F(InventoryTest, DeletedSliceTakesItsDevicesAway) {
  inventory_.RemoveSlice(*Slice("node-b-gpus", "node-b", {}));
  EXPECT_EQ(inventory_.Count("big-gpu").total, 0);
  EXPECT_EQ(inventory_.Count("gpu").total, 2);
  EXPECT_EQ(inventory_.Pools().size(), 1u);
  inventory_.RemoveSlice(*Slice("never-seen", "node-b", {}));  // harmless
  EXPECT_EQ(inventory_.device_count(), 2u);
}

TEST_F(InventoryTest, ClaimAllocationAndDeallocation) {
  inventory_.ApplyClaim(Claim("ml", "train-gpu", {}));
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").free, 2);

  inventory_.ApplyClaim(Claim("ml", "train-gpu", {{"node-b", "gpu-0"}}, {"train"}));
  DeviceCounts counts = inventory_.Count("big-gpu", "node-b");
  EXPECT_EQ(counts.allocated, 1);
  EXPECT_EQ(counts.free, 1);
  auto pods = inventory_.PodsUsing(Key("node-b", "gpu-0"));
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].namespace_name, "ml");
  EXPECT_EQ(pods[0].name, "train");
  EXPECT_EQ(pods[0].uid, "train-uid");
  EXPECT_EQ(pods[0].claim_name, "train-gpu");
  EXPECT_EQ(inventory_.Find(Key("node-b", "gpu-0"))->allocated_to,
            (std::vector<std::string>{"ml/train-gpu"}));

  inventory_.ApplyClaim(Claim("ml", "train-gpu", {}));  // deallocated
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").free, 2);
  EXPECT_TRUE(inventory_.PodsUsing(Key("node-b", "gpu-0")).empty());

  inventory_.ApplyClaim(Claim("ml", "train-gpu", {{"node-b", "gpu-1"}}, {"train"}));
  inventory_.RemoveClaim(*Claim("ml", "train-gpu", {}));
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").allocated, 0);
}

TEST_F(InventoryTest, AllocationSeenBeforeItsSliceStillCounts) {
  inventory_.ApplyClaim(Claim("ml", "early", {{"node-d", "gpu-0"}}, {"p"}));
  inventory_.ApplySlice(Slice("node-d-gpus", "node-d", {Gpu("gpu-0", 80, "gpu-80g")}));
  EXPECT_EQ(inventory_.Count("gpu", "node-d").allocated, 1);
  EXPECT_EQ(inventory_.Count("gpu", "node-d").free, 0);
}

// allocateddevices.go (foreachAllocatedDevice): results with a shareID are
// shares of an allowMultipleAllocations device; one without takes it whole.
TEST_F(InventoryTest, ShareableDeviceStaysFreeWhenShared) {
  api::Device shared = Gpu("gpu-0", 80, "gpu-80g");
  shared.allow_multiple_allocations = true;
  inventory_.ApplySlice(Slice("node-e-gpus", "node-e", {shared}));
  inventory_.ApplyClaim(ClaimOf("a", {Result("node-e", "gpu-0", false, "share-a")}));
  inventory_.ApplyClaim(ClaimOf("b", {Result("node-e", "gpu-0", false, "share-b")}));
  DeviceCounts counts = inventory_.Count("gpu", "node-e");
  EXPECT_EQ(counts.allocated, 1);
  EXPECT_EQ(counts.free, 1);
  EXPECT_EQ(inventory_.Find(Key("node-e", "gpu-0"))->allocated_to.size(), 2u);
}

TEST_F(InventoryTest, DeviceTaintRuleAddedAndRemoved) {
  inventory_.ApplyTaintRule(
      TaintRule("gpu0-broken", "node-b", "gpu-0", api::TaintEffect::kNoSchedule));
  DeviceCounts counts = inventory_.Count("big-gpu", "node-b");
  EXPECT_EQ(counts.no_schedule, 1);
  EXPECT_EQ(counts.free, 1);
  auto device = inventory_.Find(Key("node-b", "gpu-0"));
  ASSERT_EQ(device->taints.size(), 1u);
  EXPECT_EQ(device->taints[0].key, "dra-controller.dev/unhealthy");

  api::DeviceToleration tolerate;
  tolerate.key = "dra-controller.dev/unhealthy";
  tolerate.op = api::DeviceToleration::Operator::kExists;
  EXPECT_TRUE(
      inventory::UntoleratedTaints(device->taints, std::vector<api::DeviceToleration>{tolerate})
          .empty());
  EXPECT_EQ(inventory::UntoleratedTaints(device->taints, {}).size(), 1u);

  inventory_.ApplyTaintRule(
      TaintRule("gpu0-broken", "node-b", "gpu-0", api::TaintEffect::kNoExecute));
  counts = inventory_.Count("big-gpu", "node-b");
  EXPECT_EQ(counts.no_schedule, 0);
  EXPECT_EQ(counts.no_execute, 1);

  inventory_.RemoveTaintRule(*TaintRule("gpu0-broken", "", "", api::TaintEffect::kNone));
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").free, 2);
  EXPECT_TRUE(inventory_.Find(Key("node-b", "gpu-0"))->taints.empty());
}

TEST_F(InventoryTest, TaintWithEffectNoneOrUnknownDoesNotBlock) {
  inventory_.ApplyTaintRule(TaintRule("note", "node-a", "", api::TaintEffect::kNone));
  inventory_.ApplyTaintRule(TaintRule("future", "node-a", "", api::TaintEffect::kUnknown));
  DeviceCounts counts = inventory_.Count("gpu", "node-a");
  EXPECT_EQ(counts.free, 2);
  EXPECT_EQ(inventory_.Find(Key("node-a", "gpu-1"))->taints.size(), 2u);
}

TEST_F(InventoryTest, SliceTaintsMergeWithRuleTaints) {
  api::Device tainted = Gpu("gpu-0", 80, "gpu-80g");
  tainted.taints.push_back({"driver/ecc", "", api::TaintEffect::kNoSchedule, "", 0});
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {tainted, Gpu("gpu-1", 80, "gpu-80g")}));
  inventory_.ApplyTaintRule(TaintRule("all-b", "node-b", "", api::TaintEffect::kNoExecute));
  auto device = inventory_.Find(Key("node-b", "gpu-0"));
  ASSERT_EQ(device->taints.size(), 2u);
  EXPECT_EQ(device->taints[0].key, "driver/ecc");
  EXPECT_EQ(device->taints[1].effect, api::TaintEffect::kNoExecute);
  EXPECT_EQ(inventory_.Count("gpu", "node-b").free, 0);
}

TEST_F(InventoryTest, RenamedDeviceReplacesTheOldKey) {
  inventory_.ApplyClaim(Claim("ml", "old", {{"node-b", "gpu-1"}}));
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b",
                              {Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-1-renamed", 80, "gpu-80g")}));
  EXPECT_FALSE(inventory_.Find(Key("node-b", "gpu-1")).has_value());
  EXPECT_EQ(inventory_.ClassesMatching(Key("node-b", "gpu-1-renamed")),
            (std::vector<std::string>{"big-gpu", "gpu"}));
  // The claim still names the old device, which no longer exists.
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").allocated, 0);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").free, 2);
}

TEST_F(InventoryTest, SliceMovedToAnotherPool) {
  inventory_.ApplySlice(
      Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "gpu-80g")}, 1, 1, "shared-pool"));
  EXPECT_FALSE(inventory_.Find(Key("node-b", "gpu-0")).has_value());
  EXPECT_TRUE(inventory_.Find(Key("shared-pool", "gpu-0")).has_value());
  EXPECT_EQ(inventory_.Pools().size(), 2u);
}

TEST_F(InventoryTest, SelectorErrorsAreReportedAndMatchNothing) {
  inventory_.ApplyClass(Class("broken", {"device.driver == "}));
  inventory_.ApplyClass(
      Class("missing", {R"(device.attributes["gpu.example.com"].vendor == "x")"}));
  EXPECT_EQ(inventory_.Count("broken").total, 0);
  EXPECT_EQ(inventory_.Count("missing").total, 0);
  auto errors = inventory_.SelectorErrors();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].class_name, "broken");
  EXPECT_EQ(errors[0].expression, "device.driver == ");
  EXPECT_EQ(errors[0].count, 4u);  // once per device evaluated
  EXPECT_EQ(errors[1].class_name, "missing");
  EXPECT_NE(errors[1].message.find("vendor"), std::string::npos) << errors[1].message;
  EXPECT_EQ(inventory_.selector_error_total(), 8u);

  inventory_.ApplyClass(Class("broken", {kAnyGpu}));
  EXPECT_EQ(inventory_.Count("broken").total, 4);
}

TEST(InventoryMetricsTest, SelectorErrorsAreCountedPerDeviceClass) {
  auto registry = std::make_shared<prometheus::Registry>();
  Inventory inventory(registry);
  inventory.ApplySlice(Slice("s", "node-a", {Gpu("gpu-0", 24, "m"), Gpu("gpu-1", 24, "m")}));
  inventory.ApplyClass(Class("broken", {"device.driver =="}));
  inventory.ApplyClass(Class("fine", {kAnyGpu}));
  double broken = -1;
  for (const auto& family : registry->Collect()) {
    if (family.name != "dra_controller_selector_errors_total") continue;
    for (const auto& metric : family.metric) {
      ASSERT_EQ(metric.label.size(), 1u);
      EXPECT_EQ(metric.label[0].name, "device_class");
      if (metric.label[0].value == "broken") broken = metric.counter.value;
    }
  }
  EXPECT_EQ(broken, 2);
}

TEST_F(InventoryTest, ClassAddedLaterIsEvaluatedAndRemovedClassMatchesNothing) {
  EXPECT_FALSE(inventory_.HasClass("model-24g"));
  inventory_.ApplyClass(
      Class("model-24g", {R"(device.attributes["gpu.example.com"].model == "gpu-24g")"}));
  EXPECT_EQ(inventory_.Count("model-24g", "node-a").total, 2);
  inventory_.RemoveClass(*Class("model-24g", {}));
  EXPECT_FALSE(inventory_.HasClass("model-24g"));
  EXPECT_EQ(inventory_.Count("model-24g").total, 0);
  EXPECT_TRUE(inventory_.ClassesMatching(Key("node-a", "gpu-0")) ==
              std::vector<std::string>{"gpu"});
}

TEST_F(InventoryTest, NetworkAttachedDevicesCountOnEveryNodeOrOnlyClusterWide) {
  auto everywhere = std::make_shared<api::ResourceSlice>(
      *Slice("fabric", "", {Gpu("gpu-0", 80, "gpu-80g")}, 1, 1, "fabric"));
  everywhere->node_selection = api::ResourceSlice::NodeSelection::kAllNodes;
  auto selected = std::make_shared<api::ResourceSlice>(
      *Slice("rack-1", "", {Gpu("gpu-0", 80, "gpu-80g")}, 1, 1, "rack-1"));
  selected->node_selection = api::ResourceSlice::NodeSelection::kNodeSelector;
  inventory_.ApplySlice(everywhere);
  inventory_.ApplySlice(selected);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-a").total, 1);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").total, 3);
  EXPECT_EQ(inventory_.Count("big-gpu").total, 4);
  EXPECT_TRUE(inventory_.Find(Key("fabric", "gpu-0"))->all_nodes);
  EXPECT_TRUE(inventory_.Find(Key("rack-1", "gpu-0"))->node_selector);
}

TEST_F(InventoryTest, CountPerNodeAgreesWithCountOnEachNode) {
  auto fabric = std::make_shared<api::ResourceSlice>(
      *Slice("fabric", "", {Gpu("gpu-0", 80, "gpu-80g")}, 1, 1, "fabric"));
  fabric->node_selection = api::ResourceSlice::NodeSelection::kAllNodes;
  inventory_.ApplySlice(fabric);
  inventory_.ApplyClaim(Claim("ml", "c", {{"node-b", "gpu-1"}}));
  auto per_node = inventory_.CountPerNode("big-gpu");
  ASSERT_EQ(per_node.size(), 2u);
  EXPECT_EQ(per_node[""].total, 1);
  EXPECT_EQ(per_node["node-b"].total, 2);
  EXPECT_EQ(per_node["node-b"].free, 1);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").total, 3);  // its own and the fabric's
  EXPECT_TRUE(inventory_.CountPerNode("no-such-class").empty());
}

TEST_F(InventoryTest, RequestSelectorsNarrowTheClassAndTolerationsFreeTaintedDevices) {
  inventory_.ApplyTaintRule(TaintRule("b0", "node-b", "gpu-0", api::TaintEffect::kNoSchedule));
  api::ResourceClaim::ExactRequest request;
  request.device_class_name = "gpu";
  request.selectors = {kBigGpu};
  auto plain = inventory_.CountForRequest(request);
  EXPECT_TRUE(plain.class_exists);
  EXPECT_EQ(plain.counts.total, 2);
  EXPECT_EQ(plain.counts.free, 1);
  EXPECT_EQ(inventory_.CountForRequest(request, "node-a").counts.total, 0);

  api::DeviceToleration tolerate;
  tolerate.key = "dra-controller.dev/unhealthy";
  tolerate.op = api::DeviceToleration::Operator::kExists;
  request.tolerations = {tolerate};
  EXPECT_EQ(inventory_.CountForRequest(request, "node-b").counts.free, 2);

  request.selectors = {R"(device.attributes["gpu.example.com"].nope == 1)"};
  auto failing = inventory_.CountForRequest(request);
  EXPECT_EQ(failing.counts.total, 0);
  ASSERT_TRUE(failing.selector_error.has_value());
  EXPECT_NE(failing.selector_error->message.find("nope"), std::string::npos);

  request.device_class_name = "missing";
  EXPECT_FALSE(inventory_.CountForRequest(request).class_exists);
}

TEST_F(InventoryTest, FullRecomputeAgreesWithIncrementalUpdates) {
  inventory_.ApplySlice(
      Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-1", 16, "gpu-16g")}));
  inventory_.ApplyClaim(Claim("ml", "c", {{"node-a", "gpu-1"}}));
  DeviceCounts big = inventory_.Count("big-gpu");
  DeviceCounts any = inventory_.Count("gpu");
  inventory_.RecomputeAllMatches();
  EXPECT_EQ(inventory_.Count("big-gpu"), big);
  EXPECT_EQ(inventory_.Count("gpu"), any);
  EXPECT_EQ(big.total, 1);
  EXPECT_EQ(any.allocated, 1);
}

// pools_*.go (buildPool, validateDeviceNames): the pool is invalid; one
// device per name stays visible, none is free.
TEST_F(InventoryTest, DuplicateDeviceNameInAPoolMakesItInvalid) {
  inventory_.ApplySlice(
      Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-0", 16, "gpu-16g")}));
  EXPECT_EQ(inventory_.Count("gpu", "node-b").total, 1);
  EXPECT_EQ(inventory_.Count("gpu", "node-b").free, 0);
  EXPECT_EQ(inventory_.Count("gpu", "node-b").invalid_pool, 1);
  EXPECT_EQ(inventory_.Count("big-gpu", "node-b").total, 1);
}

TEST_F(InventoryTest, ConcurrentReadersSeeConsistentCountsWhileSlicesChange) {
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    while (!stop) {
      DeviceCounts counts = inventory_.Count("gpu", "node-b");
      if (counts.total != 2 && counts.total != 3) ++bad;
    }
  });
  for (int i = 0; i < 200; ++i) {
    std::vector<api::Device> devices{Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-1", 80, "gpu-80g")};
    if (i % 2 == 1) devices.push_back(Gpu("gpu-2", 80, "gpu-80g"));
    inventory_.ApplySlice(Slice("node-b-gpus", "node-b", std::move(devices)));
  }
  stop = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(inventory_.Count("gpu", "node-b").total, 3);
}

}  // namespace
}  // namespace dra::testing
