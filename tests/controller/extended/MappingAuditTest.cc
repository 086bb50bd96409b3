#include <gtest/gtest.h>

#include "controller/extended/MappingAudit.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::extended {
namespace {

using testing::Gpu;
using testing::Slice;
using Kind = MappingFinding::Kind;

std::shared_ptr<const api::DeviceClass> Class(std::string name, int64_t created,
                                              std::optional<std::string> resource,
                                              std::vector<std::string> selectors = {}) {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = std::move(name);
  c->creation_timestamp = created;
  c->extended_resource_name = std::move(resource);
  c->selectors = std::move(selectors);
  return c;
}

std::shared_ptr<const api::NodeView> Node(std::string name, std::string resource, int64_t count) {
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = std::move(name);
  if (!resource.empty()) {
    node->allocatable_extended.emplace_back(resource, kube::Quantity::FromInt64(count));
  }
  return node;
}

class MappingAuditTest : public ::testing::Test {
 protected:
  std::vector<MappingFinding> Run(std::vector<std::shared_ptr<const api::DeviceClass>> classes,
                                  std::vector<std::shared_ptr<const api::NodeView>> nodes = {}) {
    for (const auto& c : classes) inventory_.ApplyClass(c);
    return MappingAudit::Run(classes, nodes, ExtendedResourceMapping::Build(classes), inventory_);
  }

  inventory::Inventory inventory_;
};

TEST_F(MappingAuditTest, CleanClusterHasNoFindings) {
  inventory_.ApplySlice(Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100")}));
  EXPECT_TRUE(Run({Class("gpu", 1, "example.com/gpu")}, {Node("node-1", "", 0)}).empty());
}

TEST_F(MappingAuditTest, EveryLosingClassGetsADuplicateNamingTheWinner) {
  inventory_.ApplySlice(Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100")}));
  auto findings = Run({Class("a", 100, "example.com/gpu"), Class("b", 300, "example.com/gpu"),
                       Class("c", 200, "example.com/gpu")});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].kind, Kind::kDuplicate);
  EXPECT_EQ(findings[0].object_name, "a");
  EXPECT_EQ(findings[0].other, "b");
  EXPECT_EQ(findings[1].object_name, "c");
  EXPECT_NE(findings[1].message.find("DeviceClass b also names and wins"), std::string::npos);
}

TEST_F(MappingAuditTest, ClassMatchingNoDeviceIsReported) {
  auto findings = Run({Class("gpu", 1, "example.com/gpu", {"device.driver == 'none'"})});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, Kind::kNoDevices);
  EXPECT_EQ(findings[0].object_name, "gpu");
}

TEST_F(MappingAuditTest, ClassWithoutExtendedNameIsNotReportedForNoDevices) {
  EXPECT_TRUE(Run({Class("other", 1, std::nullopt)}).empty());
}

TEST_F(MappingAuditTest, DevicePluginOverlapOnNodeAndClass) {
  inventory_.ApplySlice(
      Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100")}));
  inventory_.ApplySlice(Slice("s2", "node-2", {Gpu("gpu-0", 40, "a100")}));
  auto findings = Run({Class("gpu", 1, "example.com/gpu")},
                      {Node("node-1", "example.com/gpu", 2), Node("node-2", "example.com/gpu", 0),
                       Node("node-3", "example.com/gpu", 4)});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].object_kind, "DeviceClass");
  EXPECT_NE(findings[0].message.find("1 node(s)"), std::string::npos);
  EXPECT_EQ(findings[1].object_kind, "Node");
  EXPECT_EQ(findings[1].object_name, "node-1");
  EXPECT_EQ(findings[1].other, "gpu");
  EXPECT_NE(findings[1].message.find("2 DRA device(s)"), std::string::npos);
}

TEST_F(MappingAuditTest, ImplicitNameOverlapCounts) {
  inventory_.ApplySlice(Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100")}));
  auto findings = Run({Class("gpu", 1, std::nullopt)},
                      {Node("node-1", "deviceclass.resource.kubernetes.io/gpu", 1)});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[1].resource, "deviceclass.resource.kubernetes.io/gpu");
}

}  // namespace
}  // namespace dra::extended
