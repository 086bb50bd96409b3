#include <gtest/gtest.h>

#include "controller/check/DeviceChecks.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingAudit.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::check {
namespace {

using dra::testing::Gpu;
using dra::testing::MappedClass;
using dra::testing::Slice;
using Outcome = CheckResult::Outcome;

class DeviceChecksTest : public ::testing::Test {
 protected:
  void AddClass(std::shared_ptr<const api::DeviceClass> c) {
    s_.classes.push_back(c);
    s_.inventory->ApplyClass(std::move(c));
  }
  DeviceChecks::Findings Findings() const {
    return extended::MappingAudit::Run(
        s_.classes, s_.nodes, extended::ExtendedResourceMapping::Build(s_.classes), *s_.inventory);
  }

  report::ClusterSnapshot s_;
};

TEST_F(DeviceChecksTest, CompletePoolsPassAndNameTheDriver) {
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a")}));
  auto r = DeviceChecks::DriversAndPools(s_);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.detail, "gpu.example.com (1 pools), all complete");
}

TEST_F(DeviceChecksTest, IncompletePoolFails) {
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a")}, 1, 2));
  auto r = DeviceChecks::DriversAndPools(s_);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.detail, "incomplete: pool gpu.example.com/node-a has 1 of 2 slices");
}

TEST_F(DeviceChecksTest, NoSlicesWarns) {
  EXPECT_EQ(DeviceChecks::DriversAndPools(s_).outcome, Outcome::kWarn);
}

TEST_F(DeviceChecksTest, ClassesCountedWithAndWithoutExtendedName) {
  AddClass(MappedClass("gpu", 1, "example.com/gpu"));
  AddClass(MappedClass("plain", 1, std::nullopt));
  auto r = DeviceChecks::Classes(s_);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.detail, "1 with extendedResourceName (gpu -> example.com/gpu), 1 without");
}

TEST_F(DeviceChecksTest, DuplicateNameFailsNamingTheLoser) {
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a")}));
  AddClass(MappedClass("old", 1, "example.com/gpu"));
  AddClass(MappedClass("new", 2, "example.com/gpu"));
  auto findings = Findings();
  auto r = DeviceChecks::Duplicates(findings);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("old"), std::string::npos) << r.detail;
  EXPECT_EQ(DeviceChecks::NoDevices(findings).outcome, Outcome::kPass);
}

TEST_F(DeviceChecksTest, ClassMatchingNoDeviceWarns) {
  AddClass(MappedClass("lonely", 1, "example.com/none"));
  auto r = DeviceChecks::NoDevices(Findings());
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_EQ(r.detail, "no device matches lonely");
}

TEST_F(DeviceChecksTest, DevicePluginNodeFails) {
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a")}));
  AddClass(MappedClass("gpu", 1, "example.com/gpu"));
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = "node-a";
  node->allocatable_extended.emplace_back("example.com/gpu", kube::Quantity::FromInt64(2));
  s_.nodes.push_back(node);
  auto r = DeviceChecks::DevicePluginOverlap(Findings());
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("node-a"), std::string::npos) << r.detail;
}

TEST_F(DeviceChecksTest, TaintsByEffect) {
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a"), Gpu("gpu-1", 24, "a")}));
  EXPECT_EQ(DeviceChecks::Taints(s_).outcome, Outcome::kPass);
  s_.inventory->ApplyTaintRule(
      dra::testing::TaintRule("r1", "node-a", "gpu-0", api::TaintEffect::kNone));
  EXPECT_EQ(DeviceChecks::Taints(s_).outcome, Outcome::kWarn);
  s_.inventory->ApplyTaintRule(
      dra::testing::TaintRule("r2", "node-a", "gpu-1", api::TaintEffect::kNoSchedule));
  auto r = DeviceChecks::Taints(s_);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("gpu-1 dra-controller.dev/unhealthy:NoSchedule (rule r2)"),
            std::string::npos)
      << r.detail;
}

// dra-controller's own rule names its DeviceHealth; a foreign rule only itself.
TEST_F(DeviceChecksTest, TaintsNameTheRuleAndOurDeviceHealth) {
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a"), Gpu("gpu-1", 24, "a")}));
  auto own = std::make_shared<api::DeviceTaintRule>(*dra::testing::TaintRule(
      "devicehealth-node-a-gpu-0", "node-a", "gpu-0", api::TaintEffect::kNoExecute));
  own->meta.labels.emplace_back("app.kubernetes.io/managed-by", "dra-controller");
  own->meta.labels.emplace_back("dra-controller.dev/device-health", "node-a-gpu-0");
  s_.inventory->ApplyTaintRule(own);
  s_.inventory->ApplyTaintRule(
      dra::testing::TaintRule("ops-drain", "node-a", "gpu-1", api::TaintEffect::kNoSchedule));
  auto r = DeviceChecks::Taints(s_);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("gpu-0 dra-controller.dev/unhealthy:NoExecute (rule "
                          "devicehealth-node-a-gpu-0 (DeviceHealth node-a-gpu-0))"),
            std::string::npos)
      << r.detail;
  EXPECT_NE(r.detail.find("gpu-1 dra-controller.dev/unhealthy:NoSchedule (rule ops-drain)"),
            std::string::npos)
      << r.detail;
}

// A GPU its driver took out is a warning of its own, counted per driver with
// a few examples; it does not fail device-taints, which is about rules.
TEST_F(DeviceChecksTest, DriverTaintsWarnPerDriverWithExamples) {
  using dra::testing::DriverTainted;
  s_.inventory->ApplySlice(Slice("s1", "node-a", {Gpu("gpu-0", 24, "a")}));
  EXPECT_EQ(DeviceChecks::DriverTaints(s_).outcome, Outcome::kPass);
  std::vector<api::Device> devices;
  for (int i = 0; i < 5; ++i) {
    devices.push_back(DriverTainted(Gpu("gpu-" + std::to_string(i), 24, "a"), "gpu.nvidia.com/xid",
                                    std::to_string(40 + i), api::TaintEffect::kNoExecute));
  }
  devices.push_back(
      DriverTainted(Gpu("gpu-5", 24, "a"), "gpu.nvidia.com/note", "", api::TaintEffect::kNone));
  s_.inventory->ApplySlice(Slice("s1", "node-a", devices, 2));
  auto other = std::make_shared<api::ResourceSlice>(
      *Slice("s2", "node-b",
             {DriverTainted(Gpu("nic-0", 1, "n"), "nic.example.com/link", "down",
                            api::TaintEffect::kNoSchedule)}));
  other->driver = "nic.example.com";
  s_.inventory->ApplySlice(other);
  auto r = DeviceChecks::DriverTaints(s_);
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_EQ(r.detail,
            "6 devices tainted NoSchedule/NoExecute by their driver: gpu.example.com: 5 devices ("
            "node-a/gpu-0 gpu.nvidia.com/xid=40:NoExecute, node-a/gpu-1 gpu.nvidia.com/xid=41:"
            "NoExecute, node-a/gpu-2 gpu.nvidia.com/xid=42:NoExecute and 2 more), "
            "nic.example.com: 1 device (node-b/nic-0 nic.example.com/link=down:NoSchedule)");
  EXPECT_EQ(DeviceChecks::Taints(s_).outcome, Outcome::kPass);
}

TEST(DeviceHealthCheckTest, MissingCrdWarnsAndUnhealthyFails) {
  CheckInputs in;
  in.health.not_found = true;
  EXPECT_EQ(DeviceChecks::Health(in).outcome, Outcome::kWarn);
  api::DeviceHealth ok;
  ok.meta.name = "fine";
  ok.state = api::HealthState::kHealthy;
  api::DeviceHealth bad;
  bad.meta.name = "xid";
  bad.driver = "gpu.example.com";
  bad.pool = "node-a";
  bad.device = "gpu-0";
  bad.state = api::HealthState::kUnhealthy;
  bad.state_text = "Unhealthy";
  in = {};
  in.health.Set({ok});
  EXPECT_EQ(DeviceChecks::Health(in).outcome, Outcome::kPass);
  in.health.Set({ok, bad});
  auto r = DeviceChecks::Health(in);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.detail, "not Healthy: xid (gpu.example.com/node-a/gpu-0) Unhealthy");
}

TEST_F(DeviceChecksTest, OrderHazardFailsNamingResourceAndClass) {
  EXPECT_EQ(DeviceChecks::OrderHazard(Findings()).outcome, Outcome::kPass);
  extended::MappingFinding hazard{extended::MappingFinding::Kind::kOrderHazard,
                                  "DeviceClass",
                                  "gpu.example.com",
                                  "example.com/gpu",
                                  "",
                                  "message"};
  auto r = DeviceChecks::OrderHazard({hazard});
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("example.com/gpu (DeviceClass gpu.example.com)"), std::string::npos)
      << r.detail;
}

}  // namespace
}  // namespace dra::check
