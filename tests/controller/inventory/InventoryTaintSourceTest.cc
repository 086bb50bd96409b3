#include <gtest/gtest.h>

#include "controller/inventory/Inventory.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::DeviceKey;
using inventory::TaintEffects;
using inventory::TaintSource;

DeviceKey Key(const std::string& device) { return {"gpu.example.com", "node-a", device}; }

// node-a: gpu-0 the driver taints NoExecute (an XID), gpu-1 a
// DeviceTaintRule taints NoSchedule, gpu-2 both, gpu-3 untainted.
class InventoryTaintSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplyClass(Class("gpu", {R"(device.driver == "gpu.example.com")"}));
    inventory_.ApplySlice(Slice("node-a-gpus", "node-a",
                                {DriverTainted(Gpu("gpu-0", 80, "h100"), "gpu.example.com/xid",
                                               "48", api::TaintEffect::kNoExecute),
                                 Gpu("gpu-1", 80, "h100"),
                                 DriverTainted(Gpu("gpu-2", 80, "h100"), "gpu.example.com/ecc", "",
                                               api::TaintEffect::kNoSchedule),
                                 Gpu("gpu-3", 80, "h100")}));
    inventory_.ApplyTaintRule(
        TaintRule("devicehealth-gpu-1", "node-a", "gpu-1", api::TaintEffect::kNoSchedule));
    inventory_.ApplyTaintRule(
        TaintRule("ops-drain", "node-a", "gpu-2", api::TaintEffect::kNoExecute));
  }

  inventory::Inventory inventory_;
};

TEST_F(InventoryTaintSourceTest, EachTaintKeepsItsSource) {
  auto driver = inventory_.Find(Key("gpu-0"));
  ASSERT_TRUE(driver);
  ASSERT_EQ(driver->taints.size(), 1u);
  ASSERT_EQ(driver->taint_sources.size(), 1u);
  EXPECT_EQ(driver->taint_sources[0].kind, TaintSource::Kind::kDriver);
  EXPECT_EQ(driver->taint_sources[0].RuleName(), "");

  auto ruled = inventory_.Find(Key("gpu-1"));
  ASSERT_TRUE(ruled);
  ASSERT_EQ(ruled->taint_sources.size(), 1u);
  EXPECT_EQ(ruled->taint_sources[0].kind, TaintSource::Kind::kRule);
  EXPECT_EQ(ruled->taint_sources[0].RuleName(), "devicehealth-gpu-1");
  ASSERT_NE(ruled->taint_sources[0].rule, nullptr);
  EXPECT_EQ(ruled->taint_sources[0].rule->taint.key, "dra-controller.dev/unhealthy");

  // The slice's taints come first, then the rules', each with its own source.
  auto both = inventory_.Find(Key("gpu-2"));
  ASSERT_TRUE(both);
  ASSERT_EQ(both->taints.size(), 2u);
  ASSERT_EQ(both->taint_sources.size(), 2u);
  EXPECT_EQ(both->taints[0].key, "gpu.example.com/ecc");
  EXPECT_TRUE(both->taint_sources[0].driver());
  EXPECT_EQ(both->taints[1].effect, api::TaintEffect::kNoExecute);
  EXPECT_EQ(both->taint_sources[1].RuleName(), "ops-drain");

  EXPECT_TRUE(inventory_.Find(Key("gpu-3"))->taint_sources.empty());
}

// Devices() and DevicesMatching() describe devices the same way Find() does.
TEST_F(InventoryTaintSourceTest, ListsCarryTheSources) {
  for (const auto& list : {inventory_.Devices(), inventory_.DevicesMatching("gpu")}) {
    ASSERT_EQ(list.size(), 4u);
    for (const auto& info : list) {
      EXPECT_EQ(info.taints.size(), info.taint_sources.size()) << info.key.ToString();
    }
  }
}

TEST_F(InventoryTaintSourceTest, RemovedRuleLeavesTheDriverTaint) {
  inventory_.RemoveTaintRule(*TaintRule("ops-drain", "", "", api::TaintEffect::kNone));
  auto both = inventory_.Find(Key("gpu-2"));
  ASSERT_TRUE(both);
  ASSERT_EQ(both->taint_sources.size(), 1u);
  EXPECT_TRUE(both->taint_sources[0].driver());
}

TEST_F(InventoryTaintSourceTest, VisitSplitsEffectsBySource) {
  std::map<std::string, std::pair<TaintEffects, TaintEffects>> seen;
  inventory_.VisitDevices([&](const inventory::DeviceVisit& d) {
    seen[d.device.name.str()] = {d.driver_taints, d.rule_taints};
    EXPECT_EQ(d.no_schedule, d.driver_taints.no_schedule || d.rule_taints.no_schedule);
    EXPECT_EQ(d.no_execute, d.driver_taints.no_execute || d.rule_taints.no_execute);
  });
  ASSERT_EQ(seen.size(), 4u);
  auto expect = [&](const std::string& device, TaintEffects driver, TaintEffects rule) {
    const auto& [d, r] = seen[device];
    EXPECT_EQ(d.no_schedule, driver.no_schedule) << device;
    EXPECT_EQ(d.no_execute, driver.no_execute) << device;
    EXPECT_EQ(r.no_schedule, rule.no_schedule) << device;
    EXPECT_EQ(r.no_execute, rule.no_execute) << device;
  };
  expect("gpu-0", {false, true}, {false, false});
  expect("gpu-1", {false, false}, {true, false});
  expect("gpu-2", {true, false}, {false, true});
  expect("gpu-3", {false, false}, {false, false});
}

// Effect None (and unknown effects, read as None) block nothing, whatever the source.
TEST_F(InventoryTaintSourceTest, EffectNoneIsKeptButBlocksNothing) {
  inventory_.ApplySlice(Slice("node-b-gpus", "node-b",
                              {DriverTainted(Gpu("gpu-0", 80, "h100"), "gpu.example.com/note", "",
                                             api::TaintEffect::kNone)}));
  auto info = inventory_.Find({"gpu.example.com", "node-b", "gpu-0"});
  ASSERT_TRUE(info);
  ASSERT_EQ(info->taint_sources.size(), 1u);
  EXPECT_TRUE(info->available);
  inventory_.VisitDevices([&](const inventory::DeviceVisit& d) {
    if (d.slice.pool.name != "node-b") return;
    EXPECT_FALSE(d.driver_taints.any());
    EXPECT_EQ(d.state.Label(), "free");
  });
}

}  // namespace
}  // namespace dra::testing
