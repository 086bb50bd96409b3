#include <gtest/gtest.h>

#include <memory>

#include "controller/inventory/DeviceCounts.h"

namespace dra::inventory {
namespace {

api::DeviceTaint Taint(const std::string& key, api::TaintEffect effect) {
  return {key, "", effect, "", 0};
}

TaintSource Rule(const std::string& name) {
  auto rule = std::make_shared<api::DeviceTaintRule>();
  rule->meta.name = name;
  return {TaintSource::Kind::kRule, rule};
}

DeviceInfo Device(std::vector<api::DeviceTaint> taints, std::vector<TaintSource> sources) {
  DeviceInfo info;
  info.taints = std::move(taints);
  info.taint_sources = std::move(sources);
  return info;
}

// Blocking taints are counted per source, with the driver's keys and the
// rules' names; effect None blocks nothing and is left out.
TEST(DeviceCountsTest, TaintedDevicesCountPerSource) {
  DeviceCounts counts;
  counts.Add(Device({Taint("gpu.nvidia.com/xid", api::TaintEffect::kNoExecute)}, {TaintSource{}}));
  counts.Add(Device({Taint("gpu.nvidia.com/xid", api::TaintEffect::kNoSchedule),
                     Taint("dra-controller.dev/device-health", api::TaintEffect::kNoSchedule)},
                    {TaintSource{}, Rule("devicehealth-b")}));
  counts.Add(Device({Taint("example.com/note", api::TaintEffect::kNone),
                     Taint("example.com/drain", api::TaintEffect::kNoExecute)},
                    {TaintSource{}, Rule("ops-drain")}));
  counts.Add(Device({Taint("example.com/note", api::TaintEffect::kNone)}, {Rule("notice")}));
  EXPECT_EQ(counts.total, 4);
  EXPECT_EQ(counts.driver_tainted, 2);
  EXPECT_EQ(counts.rule_tainted, 2);
  EXPECT_EQ(counts.driver_taint_keys, std::vector<std::string>{"gpu.nvidia.com/xid"});
  EXPECT_EQ(counts.taint_rules, (std::vector<std::string>{"devicehealth-b", "ops-drain"}));
}

TEST(DeviceCountsTest, MergeUnitesKeysAndRules) {
  DeviceCounts node;
  node.Add(Device({Taint("gpu.nvidia.com/xid", api::TaintEffect::kNoExecute)}, {TaintSource{}}));
  node.Add(Device({Taint("k", api::TaintEffect::kNoSchedule)}, {Rule("r-b")}));
  DeviceCounts everywhere;
  everywhere.Add(Device({Taint("k", api::TaintEffect::kNoSchedule)}, {Rule("r-a")}));
  everywhere.Add(
      Device({Taint("gpu.nvidia.com/ecc", api::TaintEffect::kNoSchedule)}, {TaintSource{}}));
  node.Merge(everywhere);
  EXPECT_EQ(node.driver_tainted, 2);
  EXPECT_EQ(node.rule_tainted, 2);
  EXPECT_EQ(node.driver_taint_keys,
            (std::vector<std::string>{"gpu.nvidia.com/ecc", "gpu.nvidia.com/xid"}));
  EXPECT_EQ(node.taint_rules, (std::vector<std::string>{"r-a", "r-b"}));
}

}  // namespace
}  // namespace dra::inventory
