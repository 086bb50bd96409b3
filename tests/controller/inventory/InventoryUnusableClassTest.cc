// A class whose selector fails at runtime on a device the v1.37.2 allocator
// evaluates is unusable there (the scheduler's Filter aborts), not a silent
// "no match" that leaves the class's other devices free.

#include <gtest/gtest.h>

#include "controller/inventory/Inventory.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::DeviceKey;
using inventory::Inventory;

// Matches 24Gi GPUs; on any other device the right operand reads a missing
// attribute, which is a runtime error.
constexpr const char* kFlaky = R"(device.attributes["gpu.example.com"].model == "gpu-24g" || )"
                               R"(device.attributes["gpu.example.com"].flaky == 1)";
constexpr const char* kAnyGpu = R"(device.driver == "gpu.example.com")";

DeviceKey Key(const std::string& pool, const std::string& device) {
  return {"gpu.example.com", pool, device};
}

std::shared_ptr<const api::ResourceSlice> EveryNode(const std::string& name,
                                                    std::vector<api::Device> devices,
                                                    int64_t slice_count = 1) {
  auto slice = std::make_shared<api::ResourceSlice>(
      *Slice(name, "", std::move(devices), 1, slice_count, name));
  slice->node_selection = api::ResourceSlice::NodeSelection::kAllNodes;
  return slice;
}

// node-a: three 24Gi GPUs (match "flaky"); node-b: two 80Gi GPUs (fail it).
class InventoryUnusableClassTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplyClass(Class("flaky", {kFlaky}));
    inventory_.ApplyClass(Class("gpu", {kAnyGpu}));
    inventory_.ApplySlice(Slice(
        "node-a-gpus", "node-a",
        {Gpu("gpu-0", 24, "gpu-24g"), Gpu("gpu-1", 24, "gpu-24g"), Gpu("gpu-2", 24, "gpu-24g")}));
    inventory_.ApplySlice(
        Slice("node-b-gpus", "node-b", {Gpu("gpu-1", 80, "gpu-80g"), Gpu("gpu-0", 80, "gpu-80g")}));
  }

  Inventory inventory_;
};

TEST_F(InventoryUnusableClassTest, RuntimeErrorMakesTheClassUnusableOnThatNodeOnly) {
  auto on_b = inventory_.Count("flaky", "node-b");
  EXPECT_EQ(on_b.total, 0);
  EXPECT_EQ(on_b.free, 0);
  ASSERT_TRUE(on_b.selector_error.has_value());
  EXPECT_EQ(on_b.selector_error->class_name, "flaky");
  EXPECT_EQ(on_b.selector_error->device, Key("node-b", "gpu-0"));  // the smallest key
  EXPECT_EQ(on_b.selector_error->expression, kFlaky);
  EXPECT_NE(on_b.selector_error->message.find("flaky"), std::string::npos)
      << on_b.selector_error->message;

  auto on_a = inventory_.Count("flaky", "node-a");
  EXPECT_EQ(on_a.free, 3);
  EXPECT_FALSE(on_a.selector_error.has_value());
  EXPECT_EQ(inventory_.Unusable("flaky", "node-a"), std::nullopt);
  EXPECT_EQ(inventory_.Unusable("flaky", "node-b"), on_b.selector_error);

  // Cluster-wide the scheduler would abort the Pod: no node is tried alone.
  auto anywhere = inventory_.Count("flaky");
  EXPECT_EQ(anywhere.total, 3);
  EXPECT_EQ(anywhere.free, 0);
  EXPECT_EQ(anywhere.selector_error, on_b.selector_error);
  EXPECT_EQ(inventory_.DevicesMatching("flaky", "node-a").size(), 3u);  // still match

  EXPECT_FALSE(inventory_.Count("gpu").selector_error.has_value());
  EXPECT_EQ(inventory_.Count("gpu").free, 5);
}

TEST_F(InventoryUnusableClassTest, DevicesInUseOrInIncompletePoolsAreNotEvaluated) {
  inventory_.ApplyClaim(Claim("ml", "c", {{"node-b", "gpu-0"}}));
  EXPECT_EQ(inventory_.Count("flaky", "node-b").selector_error->device, Key("node-b", "gpu-1"));
  inventory_.ApplyClaim(Claim("ml", "d", {{"node-b", "gpu-1"}}));
  EXPECT_FALSE(inventory_.Count("flaky", "node-b").selector_error.has_value());
  EXPECT_EQ(inventory_.Count("flaky").free, 3);

  // One slice of two published: the allocator skips the whole pool.
  inventory_.ApplySlice(Slice("node-c-gpus", "node-c", {Gpu("gpu-0", 80, "gpu-80g")}, 1, 2));
  EXPECT_FALSE(inventory_.Count("flaky", "node-c").selector_error.has_value());
  EXPECT_EQ(inventory_.Count("flaky").free, 3);

  inventory_.RemoveClaim(*Claim("ml", "d", {}));
  EXPECT_EQ(inventory_.Count("flaky", "node-b").selector_error->device, Key("node-b", "gpu-1"));
}

// allocator_*.go (allocateOne): only devices allocated whole are skipped as
// "in use"; a shared device is evaluated again for the next share.
TEST_F(InventoryUnusableClassTest, ShareableDeviceIsEvaluatedWhileShared) {
  api::Device shared = Gpu("gpu-0", 80, "gpu-80g");
  shared.allow_multiple_allocations = true;
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {shared}, 2));
  inventory_.ApplyClaim(ClaimOf("c", {Result("node-b", "gpu-0", false, "share-c")}));
  EXPECT_TRUE(inventory_.Count("flaky", "node-b").selector_error.has_value());
  inventory_.ApplyClaim(ClaimOf("c", {Result("node-b", "gpu-0")}));  // taken whole
  EXPECT_FALSE(inventory_.Count("flaky", "node-b").selector_error.has_value());
}

TEST_F(InventoryUnusableClassTest, FailureOnADeviceEveryNodeReachesBlocksEveryNode) {
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {}, 2));  // node-b: no failures left
  EXPECT_FALSE(inventory_.Count("flaky").selector_error.has_value());
  inventory_.ApplySlice(EveryNode("fabric", {Gpu("gpu-0", 80, "fabric")}));
  EXPECT_EQ(inventory_.Count("flaky", "node-a").free, 0);
  EXPECT_EQ(inventory_.Count("flaky", "node-a").selector_error->device, Key("fabric", "gpu-0"));

  auto per_node = inventory_.CountPerNode("flaky");
  ASSERT_EQ(per_node.size(), 2u);
  EXPECT_EQ(per_node[""].total, 0);
  EXPECT_TRUE(per_node[""].selector_error.has_value());
  EXPECT_EQ(per_node["node-a"].total, 3);
  EXPECT_EQ(per_node["node-a"].free, 0);
  EXPECT_EQ(per_node["node-a"].selector_error, per_node[""].selector_error);
}

TEST_F(InventoryUnusableClassTest, PerDeviceSliceFailsOnEveryNodeItsDevicesServe) {
  api::Device on_a = Gpu("gpu-0", 24, "gpu-24g");
  on_a.node_name = "node-a";
  api::Device on_c = Gpu("gpu-1", 80, "gpu-80g");
  on_c.node_name = "node-c";
  auto slice =
      std::make_shared<api::ResourceSlice>(*Slice("mixed", "", {on_a, on_c}, 1, 1, "mixed"));
  slice->node_selection = api::ResourceSlice::NodeSelection::kPerDevice;
  inventory_.ApplySlice(slice);
  // node-a gets the whole slice, so the allocator meets node-c's device there.
  EXPECT_EQ(inventory_.Count("flaky", "node-a").selector_error->device, Key("mixed", "gpu-1"));
  EXPECT_EQ(inventory_.Count("flaky", "node-c").selector_error->device, Key("mixed", "gpu-1"));
  EXPECT_FALSE(inventory_.Count("flaky", "node-d").selector_error.has_value());
  inventory_.ApplyClaim(Claim("ml", "c", {{"mixed", "gpu-1"}}));
  EXPECT_FALSE(inventory_.Count("flaky", "node-a").selector_error.has_value());
}

TEST_F(InventoryUnusableClassTest, CountPerNodeNamesTheNodesWhereTheClassIsUnusable) {
  auto per_node = inventory_.CountPerNode("flaky");
  ASSERT_EQ(per_node.size(), 2u);  // node-b has no match, but an entry for the error
  EXPECT_EQ(per_node["node-a"].free, 3);
  EXPECT_FALSE(per_node["node-a"].selector_error.has_value());
  EXPECT_EQ(per_node["node-b"].total, 0);
  EXPECT_EQ(per_node["node-b"].free, 0);
  EXPECT_EQ(per_node["node-b"].selector_error, inventory_.Count("flaky", "node-b").selector_error);
}

TEST_F(InventoryUnusableClassTest, FailuresAreForgottenWithTheirDeviceOrSelector) {
  inventory_.RemoveSlice(*Slice("node-b-gpus", "node-b", {}));
  EXPECT_FALSE(inventory_.Count("flaky").selector_error.has_value());
  EXPECT_EQ(inventory_.Count("flaky").free, 3);

  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "gpu-80g")}, 2));
  EXPECT_TRUE(inventory_.Count("flaky").selector_error.has_value());
  inventory_.RecomputeAllMatches();
  EXPECT_EQ(inventory_.Count("flaky", "node-b").selector_error->device, Key("node-b", "gpu-0"));

  // A generation bump that fixes the attribute replaces the failing device.
  api::Device fixed = Gpu("gpu-0", 80, "gpu-80g");
  fixed.attributes.emplace_back("flaky", api::AttributeValue(int64_t{0}));
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {fixed}, 3));
  EXPECT_FALSE(inventory_.Count("flaky").selector_error.has_value());

  inventory_.ApplySlice(Slice("node-b-gpus", "node-b", {Gpu("gpu-0", 80, "gpu-80g")}, 4));
  inventory_.ApplyClass(Class("flaky", {kAnyGpu}));
  EXPECT_FALSE(inventory_.Count("flaky").selector_error.has_value());
  EXPECT_EQ(inventory_.Count("flaky").free, 4);
  inventory_.ApplyClass(Class("flaky", {kFlaky}));
  EXPECT_TRUE(inventory_.Count("flaky").selector_error.has_value());
  inventory_.RemoveClass(*Class("flaky", {}));
  EXPECT_FALSE(inventory_.Unusable("flaky").has_value());
}

TEST_F(InventoryUnusableClassTest, SelectorThatDoesNotCompileMakesTheClassUnusable) {
  inventory_.ApplyClass(Class("broken", {"device.driver == "}));
  auto counts = inventory_.Count("broken", "node-a");
  EXPECT_EQ(counts.total, 0);
  ASSERT_TRUE(counts.selector_error.has_value());
  EXPECT_EQ(counts.selector_error->device, Key("node-a", "gpu-0"));
  EXPECT_EQ(counts.selector_error->expression, "device.driver == ");
  EXPECT_FALSE(inventory_.Count("broken", "node-z").selector_error.has_value());
}

TEST_F(InventoryUnusableClassTest, RequestCountsReportTheClassAndTheirOwnErrors) {
  api::ResourceClaim::ExactRequest request;
  request.device_class_name = "flaky";
  auto on_b = inventory_.CountForRequest(request, "node-b");
  EXPECT_EQ(on_b.counts.free, 0);
  ASSERT_TRUE(on_b.counts.selector_error.has_value());
  EXPECT_EQ(on_b.counts.selector_error->class_name, "flaky");
  EXPECT_FALSE(inventory_.CountForRequest(request, "node-a").counts.selector_error.has_value());
  EXPECT_EQ(inventory_.CountForRequest(request, "node-a").counts.free, 3);

  // The request's own selector fails on node-b's GPUs: the scheduler aborts too.
  request.device_class_name = "gpu";
  request.selectors = {kFlaky};
  auto own = inventory_.CountForRequest(request);
  EXPECT_EQ(own.counts.total, 3);
  EXPECT_EQ(own.counts.free, 0);
  EXPECT_TRUE(own.selector_error.has_value());
  EXPECT_FALSE(own.counts.selector_error.has_value());
  EXPECT_EQ(inventory_.CountForRequest(request, "node-a").counts.free, 3);
}

TEST_F(InventoryUnusableClassTest, VisitedDevicesNameTheClassesUnusableWhereTheyAre) {
  inventory_.ApplySlice(Slice("node-a-gpus", "node-a",
                              {Gpu("gpu-0", 24, "gpu-24g"), Gpu("gpu-9", 80, "gpu-80g")}, 2));
  std::map<std::string, std::vector<std::string>> unusable;
  inventory_.VisitDevices([&](const inventory::DeviceVisit& d) {
    auto& names = unusable[d.slice.pool.name + "/" + d.device.name.str()];
    if (d.unusable != nullptr) names.assign(d.unusable->begin(), d.unusable->end());
  });
  EXPECT_EQ(unusable["node-a/gpu-0"], (std::vector<std::string>{"flaky"}));
  EXPECT_TRUE(unusable["node-a/gpu-9"].empty());  // fails "flaky", matches only "gpu"
  EXPECT_TRUE(unusable["node-b/gpu-0"].empty());
}

}  // namespace
}  // namespace dra::testing
