// Devices behind a slice nodeSelector, or a device's own nodeSelector under
// perDeviceNodeSelection, count on every node whose labels the selector
// picks (the v1.37.2 allocator's GatherPools / NodeMatches), kept current as
// nodes come, go and change labels.

#include <gtest/gtest.h>
#include <simdjson.h>

#include "controller/inventory/Inventory.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::DeviceKey;
using inventory::Inventory;
using Selection = api::ResourceSlice::NodeSelection;

constexpr const char* kAnyGpu = R"(device.driver == "gpu.example.com")";
// Fails at runtime on a device without the "flaky" attribute.
constexpr const char* kFlaky = R"(device.attributes["gpu.example.com"].flaky == 1)";
constexpr const char* kGpuYes =
    R"({"nodeSelectorTerms": [{"matchExpressions": [{"key": "gpu", "operator": "In", "values": ["yes"]}]}]})";

DeviceKey Key(const std::string& pool, const std::string& device) {
  return {"gpu.example.com", pool, device};
}

std::shared_ptr<const api::NodeSelector> Selector(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  return std::make_shared<api::NodeSelector>(api::NodeSelector::FromJson(doc));
}

std::shared_ptr<const api::ResourceSlice> Selected(const std::string& pool,
                                                   std::vector<api::Device> devices,
                                                   const std::string& selector = kGpuYes,
                                                   int64_t generation = 1) {
  std::string name = generation == 1 ? pool : pool + "-" + std::to_string(generation);
  auto slice = std::make_shared<api::ResourceSlice>(
      *Slice(name, "", std::move(devices), generation, 1, pool));
  slice->node_selection = Selection::kNodeSelector;
  slice->node_selector = Selector(selector);
  return slice;
}

std::shared_ptr<const api::NodeView> Node(const std::string& name,
                                          std::vector<std::pair<std::string, std::string>> labels) {
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = name;
  node->meta.labels = std::move(labels);
  return node;
}

// node-1 and node-2 carry gpu=yes, node-3 gpu=no; the "rack" pool's two
// GPUs sit behind a gpu=yes selector.
class NodePlacementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplyClass(Class("gpu", {kAnyGpu}));
    inventory_.ApplyNode(Node("node-1", {{"gpu", "yes"}}));
    inventory_.ApplyNode(Node("node-2", {{"gpu", "yes"}, {"zone", "b"}}));
    inventory_.ApplyNode(Node("node-3", {{"gpu", "no"}}));
    inventory_.ApplySlice(
        Selected("rack", {Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-1", 80, "gpu-80g")}));
  }

  Inventory inventory_;
};

TEST_F(NodePlacementTest, SelectorDevicesCountOnEveryPickedNode) {
  EXPECT_EQ(inventory_.Count("gpu").total, 2);
  EXPECT_EQ(inventory_.Count("gpu", "node-1").free, 2);
  EXPECT_EQ(inventory_.Count("gpu", "node-2").free, 2);
  EXPECT_EQ(inventory_.Count("gpu", "node-3").total, 0);
  EXPECT_EQ(inventory_.DevicesMatching("gpu", "node-2").size(), 2u);
  EXPECT_TRUE(inventory_.DevicesMatching("gpu", "node-3").empty());
  auto per_node = inventory_.CountPerNode("gpu");
  ASSERT_EQ(per_node.size(), 2u);
  EXPECT_EQ(per_node["node-1"].total, 2);
  EXPECT_EQ(per_node["node-2"].free, 2);
  EXPECT_TRUE(inventory_.Find(Key("rack", "gpu-0"))->node_selector);
}

TEST_F(NodePlacementTest, AnAllocatedDeviceIsTakenOnEveryNode) {
  inventory_.ApplyClaim(Claim("ml", "c", {{"rack", "gpu-1"}}));
  EXPECT_EQ(inventory_.Count("gpu", "node-1").free, 1);
  EXPECT_EQ(inventory_.Count("gpu", "node-2").free, 1);
  EXPECT_EQ(inventory_.Count("gpu", "node-2").allocated, 1);
  auto per_node = inventory_.CountPerNode("gpu");
  EXPECT_EQ(per_node["node-1"].free, 1);
  EXPECT_EQ(per_node["node-2"].free, 1);
}

TEST_F(NodePlacementTest, LabelChangesMoveTheDevices) {
  inventory_.ApplyNode(Node("node-3", {{"gpu", "yes"}}));
  inventory_.ApplyNode(Node("node-1", {{"gpu", "no"}}));
  EXPECT_EQ(inventory_.Count("gpu", "node-3").total, 2);
  EXPECT_EQ(inventory_.Count("gpu", "node-1").total, 0);
  inventory_.RemoveNode(*Node("node-2", {}));
  EXPECT_EQ(inventory_.Count("gpu", "node-2").total, 0);
  auto per_node = inventory_.CountPerNode("gpu");
  ASSERT_EQ(per_node.size(), 1u);
  EXPECT_EQ(per_node["node-3"].total, 2);
}

TEST_F(NodePlacementTest, NodesSeenAfterTheSliceCountTheSame) {
  Inventory late;
  late.ApplyClass(Class("gpu", {kAnyGpu}));
  late.ApplySlice(Selected("rack", {Gpu("gpu-0", 80, "gpu-80g"), Gpu("gpu-1", 80, "gpu-80g")}));
  EXPECT_TRUE(late.CountPerNode("gpu").empty());  // no node known: cluster-wide only
  EXPECT_EQ(late.Count("gpu").total, 2);
  late.ApplyNode(Node("node-2", {{"gpu", "yes"}}));
  late.ApplyNode(Node("node-3", {{"gpu", "no"}}));
  late.ApplyNode(Node("node-1", {{"gpu", "yes"}}));
  EXPECT_EQ(late.CountPerNode("gpu"), inventory_.CountPerNode("gpu"));
}

TEST_F(NodePlacementTest, ANewSliceGenerationBringsItsOwnSelector) {
  constexpr const char* kZoneB =
      R"({"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}]})";
  inventory_.ApplySlice(Selected("rack", {Gpu("gpu-0", 80, "gpu-80g")}, kZoneB, 2));
  EXPECT_EQ(inventory_.Count("gpu", "node-1").total, 0);
  EXPECT_EQ(inventory_.Count("gpu", "node-2").total, 1);
  inventory_.RemoveSlice(*Selected("rack", {}, kZoneB, 2));
  EXPECT_EQ(inventory_.Count("gpu", "node-1").total, 2);  // generation 1 counts again
  inventory_.RemoveSlice(*Selected("rack", {}));
  EXPECT_TRUE(inventory_.CountPerNode("gpu").empty());
}

TEST_F(NodePlacementTest, MatchFieldsPickByNodeName) {
  inventory_.ApplySlice(Selected(
      "named", {Gpu("gpu-0", 24, "gpu-24g")},
      R"({"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-3"]}]}]})"));
  EXPECT_EQ(inventory_.Count("gpu", "node-3").total, 1);
  EXPECT_EQ(inventory_.Count("gpu", "node-1").total, 2);
}

TEST_F(NodePlacementTest, AnUnparsableSelectorPicksNoNode) {
  auto broken = Selected(
      "broken", {Gpu("gpu-0", 24, "gpu-24g")},
      R"({"nodeSelectorTerms": [{"matchExpressions": [{"key": "gpu", "operator": "Equals", "values": ["yes"]}]}]})");
  EXPECT_FALSE(broken->node_selector->ok());
  inventory_.ApplySlice(broken);
  EXPECT_EQ(inventory_.Count("gpu").total, 3);
  EXPECT_EQ(inventory_.Count("gpu", "node-1").total, 2);
  EXPECT_EQ(inventory_.CountPerNode("gpu").size(), 2u);
}

TEST_F(NodePlacementTest, PerDeviceSelectorsPlaceEachDevice) {
  api::Device local = Gpu("gpu-0", 24, "gpu-24g");
  local.node_name = "node-3";
  api::Device picked = Gpu("gpu-1", 80, "gpu-80g");
  picked.node_selector = Selector(kGpuYes);
  api::Device everywhere = Gpu("gpu-2", 80, "gpu-80g");
  everywhere.all_nodes = true;
  auto slice = std::make_shared<api::ResourceSlice>(
      *Slice("mixed", "", {local, picked, everywhere}, 1, 1, "mixed"));
  slice->node_selection = Selection::kPerDevice;
  inventory_.ApplySlice(slice);
  EXPECT_EQ(inventory_.Count("gpu", "node-1").total, 4);  // rack's 2, gpu-1, gpu-2
  EXPECT_EQ(inventory_.Count("gpu", "node-3").total, 2);  // gpu-0, gpu-2
  EXPECT_TRUE(inventory_.Find(Key("mixed", "gpu-1"))->node_selector);
  EXPECT_FALSE(inventory_.Find(Key("mixed", "gpu-0"))->node_selector);
  auto per_node = inventory_.CountPerNode("gpu");
  EXPECT_EQ(per_node[""].total, 1);
  EXPECT_EQ(per_node["node-1"].total, 3);
  EXPECT_EQ(per_node["node-3"].total, 1);
}

TEST_F(NodePlacementTest, RequestsCountOnPickedNodes) {
  api::ResourceClaim::ExactRequest request;
  request.device_class_name = "gpu";
  request.selectors = {R"(device.attributes["gpu.example.com"].model == "gpu-80g")"};
  EXPECT_EQ(inventory_.CountForRequest(request, "node-2").counts.free, 2);
  EXPECT_EQ(inventory_.CountForRequest(request, "node-3").counts.total, 0);
}

TEST_F(NodePlacementTest, AFailingSelectorDeviceMakesTheClassUnusableWhereItIsPicked) {
  inventory_.ApplyClass(Class("flaky", {kFlaky}));
  EXPECT_EQ(inventory_.Unusable("flaky", "node-1")->device, Key("rack", "gpu-0"));
  EXPECT_TRUE(inventory_.Unusable("flaky", "node-2").has_value());
  EXPECT_FALSE(inventory_.Unusable("flaky", "node-3").has_value());
  auto per_node = inventory_.CountPerNode("flaky");
  EXPECT_TRUE(per_node["node-1"].selector_error.has_value());
  EXPECT_FALSE(per_node.contains("node-3"));
  inventory_.ApplyNode(Node("node-3", {{"gpu", "yes"}}));
  EXPECT_TRUE(inventory_.Count("flaky", "node-3").selector_error.has_value());
}

TEST_F(NodePlacementTest, PerDeviceSelectorFailuresBlockEveryNodeTheSliceServes) {
  inventory_.ApplyClass(Class("flaky", {kFlaky}));
  inventory_.RemoveSlice(*Selected("rack", {}));
  api::Device ok = Gpu("gpu-0", 24, "gpu-24g");
  ok.attributes.emplace_back("flaky", api::AttributeValue(int64_t{1}));
  ok.node_name = "node-3";
  api::Device failing = Gpu("gpu-1", 80, "gpu-80g");
  failing.node_selector = Selector(kGpuYes);
  auto slice =
      std::make_shared<api::ResourceSlice>(*Slice("mixed", "", {ok, failing}, 1, 1, "mixed"));
  slice->node_selection = Selection::kPerDevice;
  inventory_.ApplySlice(slice);
  // node-3 gets the whole slice, so the allocator meets gpu-1 there too.
  EXPECT_EQ(inventory_.Unusable("flaky", "node-3")->device, Key("mixed", "gpu-1"));
  EXPECT_TRUE(inventory_.Unusable("flaky", "node-1").has_value());
  inventory_.ApplyNode(Node("node-4", {}));
  EXPECT_FALSE(inventory_.Unusable("flaky", "node-4").has_value());
}

}  // namespace
}  // namespace dra::testing
