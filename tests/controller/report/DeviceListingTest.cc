#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "controller/report/DeviceListing.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::report {
namespace {

using testing::Claim;
using testing::Gpu;
using testing::Slice;

class DeviceListingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplyClass(testing::Class("gpu.example.com", {}));
    inventory_.ApplyClass(
        testing::Class("a100", {"device.attributes['gpu.example.com'].model == 'a100'"}));
    inventory_.ApplySlice(
        Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "h100")}));
    inventory_.ApplySlice(Slice("s2", "node-2", {Gpu("gpu-0", 80, "h100")}));
    inventory_.ApplyClaim(Claim("team", "pod-a-gpu-x", {{"node-1", "gpu-0"}}, {"pod-a"}));
    inventory_.ApplyTaintRule(
        testing::TaintRule("bad", "node-2", "gpu-0", api::TaintEffect::kNoSchedule));
  }

  inventory::Inventory inventory_;
};

TEST_F(DeviceListingTest, OneRowPerDeviceWithStateAndHolder) {
  auto rows = DeviceListing::Build(inventory_, {});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].node, "node-1");
  EXPECT_EQ(rows[0].key.ToString(), "gpu.example.com/node-1/gpu-0");
  EXPECT_EQ(rows[0].state, "allocated");
  EXPECT_EQ(rows[0].claims, std::vector<std::string>{"team/pod-a-gpu-x"});
  EXPECT_EQ(rows[0].pods, std::vector<std::string>{"team/pod-a"});
  EXPECT_EQ(rows[0].classes, (std::vector<std::string>{"a100", "gpu.example.com"}));
  EXPECT_EQ(rows[1].state, "free");
  EXPECT_EQ(rows[1].classes, std::vector<std::string>{"gpu.example.com"});
  EXPECT_EQ(rows[2].state, "tainted");
  ASSERT_EQ(rows[2].taints.size(), 1u);
  EXPECT_EQ(rows[2].taints[0].Text(), "dra-controller.dev/unhealthy=xid-79:NoSchedule (rule bad)");
}

TEST_F(DeviceListingTest, FiltersCombine) {
  EXPECT_EQ(DeviceListing::Build(inventory_, {"node-1", "", "", ""}).size(), 2u);
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "a100", "", ""}).size(), 1u);
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "", "other.example.com", ""}).size(), 0u);
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "", "", "free"}).size(), 1u);
  EXPECT_EQ(DeviceListing::Build(inventory_, {"node-1", "", "", "tainted"}).size(), 0u);
}

// A partitionable GPU on node-3 with the whole GPU allocated: the halves'
// counters are used up, so they are unavailable, not free. A monitoring
// claim with adminAccess on the same GPU is shown but does not allocate it.
TEST_F(DeviceListingTest, DevicesTheAllocatorCannotGiveAreUnavailable) {
  inventory_.ApplySlice(testing::CounterSlice(
      "mig-counters", "node-3", {testing::Counters("gpu-0", {{"memory", 80LL << 30}})}));
  inventory_.ApplySlice(
      Slice("mig-devices", "node-3",
            {testing::Partition("full", "gpu-0", 80), testing::Partition("half-0", "gpu-0", 40),
             testing::Partition("half-1", "gpu-0", 40)},
            1, 2));
  inventory_.ApplyClaim(testing::ClaimOf("whole", {testing::Result("node-3", "full")}));
  inventory_.ApplyClaim(
      testing::ClaimOf("monitor", {testing::Result("node-3", "half-0", /*admin_access=*/true)}));
  auto rows = DeviceListing::Build(inventory_, {"node-3", "", "", ""});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].key.device, "full");
  EXPECT_EQ(rows[0].state, "allocated");
  EXPECT_EQ(rows[1].key.device, "half-0");
  EXPECT_EQ(rows[1].state, "unavailable");
  EXPECT_EQ(rows[1].reason, "counters in use");
  EXPECT_TRUE(rows[1].claims.empty());
  EXPECT_EQ(rows[1].admin_access_claims, std::vector<std::string>{"default/monitor"});
  EXPECT_EQ(rows[2].state, "unavailable");
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "", "", "unavailable"}).size(), 2u);

  std::string table = DeviceListing::FormatTable(rows);
  EXPECT_NE(table.find("unavailable (counters in use)"), std::string::npos) << table;
  EXPECT_NE(table.find("default/monitor(adminAccess)"), std::string::npos) << table;
  std::string json = DeviceListing::FormatJson(rows);
  EXPECT_NE(json.find("\"reason\": \"counters in use\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"adminAccessClaims\": [\n      \"default/monitor\""), std::string::npos)
      << json;
}

// adminAccess does not allocate: a device only such a claim names is free.
TEST_F(DeviceListingTest, AdminAccessAloneLeavesADeviceFree) {
  inventory_.ApplySlice(Slice("s3", "node-3", {Gpu("gpu-0", 80, "h100")}));
  inventory_.ApplyClaim(
      testing::ClaimOf("monitor", {testing::Result("node-3", "gpu-0", /*admin_access=*/true)}));
  auto rows = DeviceListing::Build(inventory_, {"node-3", "", "", ""});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].state, "free");
  EXPECT_EQ(rows[0].admin_access_claims, std::vector<std::string>{"default/monitor"});
}

// A tainted device a claim holds is the one an operator looks for: its state
// names both, and either filter finds it.
TEST_F(DeviceListingTest, AllocatedTaintedDeviceShowsBothAndEitherFilterFindsIt) {
  inventory_.ApplyTaintRule(
      testing::TaintRule("held", "node-1", "gpu-0", api::TaintEffect::kNoExecute));
  auto rows = DeviceListing::Build(inventory_, {"node-1", "", "", ""});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].state, "allocated,tainted");
  EXPECT_EQ(rows[1].state, "free");
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "", "", "tainted"}).size(), 2u);
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "", "", "allocated"}).size(), 1u);
  EXPECT_EQ(DeviceListing::Build(inventory_, {"", "", "", "free"}).size(), 1u);
  std::string json = DeviceListing::FormatJson(rows);
  EXPECT_NE(json.find("\"state\": \"allocated,tainted\""), std::string::npos) << json;
}

// The halves of a partitionable GPU whose whole is allocated are
// unavailable; with a taint they are both.
TEST_F(DeviceListingTest, UnavailableTaintedDeviceShowsBoth) {
  inventory_.ApplySlice(testing::CounterSlice(
      "mig-counters", "node-3", {testing::Counters("gpu-0", {{"memory", 80LL << 30}})}));
  inventory_.ApplySlice(Slice(
      "mig-devices", "node-3",
      {testing::Partition("full", "gpu-0", 80), testing::Partition("half-0", "gpu-0", 40)}, 1, 2));
  inventory_.ApplyClaim(testing::ClaimOf("whole", {testing::Result("node-3", "full")}));
  inventory_.ApplyTaintRule(
      testing::TaintRule("half", "node-3", "half-0", api::TaintEffect::kNoSchedule));
  auto rows = DeviceListing::Build(inventory_, {"node-3", "", "", "unavailable"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].state, "unavailable,tainted");
  EXPECT_EQ(rows[0].reason, "counters in use");
  EXPECT_NE(DeviceListing::FormatTable(rows).find("unavailable,tainted (counters in use)"),
            std::string::npos);
}

// A GPU its driver taints (e.g. an XID) is out for the driver's reason, not
// ours: the row, the table and the JSON say which taint comes from where, and
// --state tainted finds it like a rule-tainted one.
TEST_F(DeviceListingTest, DriverTaintsAreToldFromRuleTaints) {
  inventory_.ApplySlice(
      Slice("s3", "node-3",
            {testing::DriverTainted(Gpu("gpu-0", 80, "h100"), "gpu.nvidia.com/xid", "48",
                                    api::TaintEffect::kNoExecute),
             Gpu("gpu-1", 80, "h100")}));
  inventory_.ApplyTaintRule(
      testing::TaintRule("devicehealth-n3", "node-3", "gpu-0", api::TaintEffect::kNoSchedule));
  auto rows = DeviceListing::Build(inventory_, {"node-3", "", "", "tainted"});
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].taints.size(), 2u);
  EXPECT_EQ(rows[0].taints[0].Text(), "gpu.nvidia.com/xid=48:NoExecute (driver)");
  EXPECT_EQ(rows[0].taints[1].Text(),
            "dra-controller.dev/unhealthy=xid-79:NoSchedule (rule devicehealth-n3)");
  std::string table = DeviceListing::FormatTable(rows);
  EXPECT_NE(table.find("gpu.nvidia.com/xid=48:NoExecute (driver),dra-controller.dev/"
                       "unhealthy=xid-79:NoSchedule (rule devicehealth-n3)"),
            std::string::npos)
      << table;
  auto json = nlohmann::json::parse(DeviceListing::FormatJson(rows));
  ASSERT_EQ(json[0]["taints"].size(), 2u);
  EXPECT_EQ(json[0]["taints"][0], (nlohmann::json{{"key", "gpu.nvidia.com/xid"},
                                                  {"value", "48"},
                                                  {"effect", "NoExecute"},
                                                  {"source", "driver"}}));
  EXPECT_EQ(json[0]["taints"][1]["source"], "rule");
  EXPECT_EQ(json[0]["taints"][1]["rule"], "devicehealth-n3");
  EXPECT_EQ(json[0]["taints"][1]["effect"], "NoSchedule");

  inventory_.RemoveTaintRule(*testing::TaintRule("devicehealth-n3", "", "", {}));
  rows = DeviceListing::Build(inventory_, {"", "", "", "tainted"});
  ASSERT_EQ(rows.size(), 2u);  // node-2's rule-tainted GPU and the driver-tainted one
  EXPECT_EQ(rows[1].key.ToString(), "gpu.example.com/node-3/gpu-0");
  EXPECT_EQ(rows[1].state, "tainted");
}

// An effect this build does not know is shown as published.
TEST_F(DeviceListingTest, UnknownEffectKeepsItsText) {
  api::Device device = Gpu("gpu-0", 80, "h100");
  device.taints.push_back({"k", "", api::TaintEffect::kUnknown, "NoExecuteWithPDB", 0});
  inventory_.ApplySlice(Slice("s3", "node-3", {device}));
  auto json = nlohmann::json::parse(
      DeviceListing::FormatJson(DeviceListing::Build(inventory_, {"node-3", "", "", ""})));
  EXPECT_EQ(json[0]["taints"][0]["effect"], "NoExecuteWithPDB");
  EXPECT_EQ(json[0]["state"], "free");
}

TEST_F(DeviceListingTest, StateValidation) {
  EXPECT_TRUE(DeviceListing::ValidateState("").empty());
  EXPECT_TRUE(DeviceListing::ValidateState("tainted").empty());
  EXPECT_TRUE(DeviceListing::ValidateState("unavailable").empty());
  EXPECT_FALSE(DeviceListing::ValidateState("busy").empty());
}

TEST_F(DeviceListingTest, TableAndJsonFormats) {
  auto rows = DeviceListing::Build(inventory_, {});
  std::string table = DeviceListing::FormatTable(rows);
  EXPECT_EQ(table.rfind("NODE", 0), 0u);
  EXPECT_NE(table.find("team/pod-a"), std::string::npos);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 4);
  std::string json = DeviceListing::FormatJson(rows);
  EXPECT_NE(json.find("\"state\": \"tainted\""), std::string::npos);
}

}  // namespace
}  // namespace dra::report
