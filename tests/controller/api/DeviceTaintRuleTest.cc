#include <gtest/gtest.h>

#include "controller/api/DeviceTaintRule.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

using testing::Project;

TEST(DeviceTaintRuleTest, ParsesReferenceExample) {
  auto rule = Project<DeviceTaintRule>(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule",
    "metadata": { "name": "health-gpu.example.com-node-1-gpu-0-xid79", "uid": "4e0a", "resourceVersion": "12001",
                  "generation": 2, "creationTimestamp": "2026-07-24T11:00:00Z" },
    "spec": { "deviceSelector": { "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0" },
              "taint": { "key": "health.example.com/xid-79", "value": "fallen-off-bus",
                         "effect": "NoExecute", "timeAdded": "2026-07-24T11:05:00Z" } },
    "status": { "conditions": [ { "type": "EvictionInProgress", "status": "True", "reason": "PodsPendingEviction",
                      "message": "2 pods need to be evicted in 1 namespace.", "observedGeneration": 2,
                      "lastTransitionTime": "2026-07-24T11:05:03Z" } ] } })");
  ASSERT_TRUE(rule.ok()) << rule.status().ToString();
  ASSERT_TRUE(rule->selector.has_value());
  EXPECT_EQ(rule->selector->driver, "gpu.example.com");
  EXPECT_EQ(rule->selector->pool, "node-1");
  EXPECT_EQ(rule->selector->device, "gpu-0");
  EXPECT_EQ(rule->taint.key, "health.example.com/xid-79");
  EXPECT_EQ(rule->taint.value, "fallen-off-bus");
  EXPECT_EQ(rule->taint.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(rule->taint.time_added, 1784891100);
  ASSERT_EQ(rule->conditions.size(), 1u);
  EXPECT_EQ(rule->conditions[0].type, "EvictionInProgress");
  EXPECT_EQ(rule->conditions[0].status, "True");
  EXPECT_EQ(rule->conditions[0].reason, "PodsPendingEviction");
  EXPECT_EQ(rule->conditions[0].observed_generation, 2);
  EXPECT_TRUE(rule->Matches("gpu.example.com", "node-1", "gpu-0"));
  EXPECT_FALSE(rule->Matches("gpu.example.com", "node-1", "gpu-1"));
}

TEST(DeviceTaintRuleTest, SelectorPresenceAndUnknownEffect) {
  auto none = Project<DeviceTaintRule>(
      R"({"metadata":{"name":"r"},"spec":{"taint":{"key":"k","effect":"Foo"}},"status":null})");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->selector.has_value());
  EXPECT_FALSE(none->Matches("d", "p", "x"));
  EXPECT_EQ(none->taint.EffectName(), "Unknown(Foo)");
  EXPECT_EQ(none->taint.EffectiveEffect(), TaintEffect::kNone);
  EXPECT_TRUE(none->conditions.empty());
  auto all = Project<DeviceTaintRule>(
      R"({"metadata":{"name":"r"},"spec":{"deviceSelector":{},"taint":{"key":"k","effect":"None"}}})");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->Matches("d", "p", "x"));
  EXPECT_EQ(all->taint.effect, TaintEffect::kNone);
}

TEST(DeviceTaintRuleTest, WrongTypesAndMissingFields) {
  auto rule = Project<DeviceTaintRule>(
      R"({"metadata":{"name":"r"},"spec":{"deviceSelector":"x","taint":7},
          "status":{"conditions":[{"type":1,"observedGeneration":"2"}]}})");
  ASSERT_TRUE(rule.ok());
  EXPECT_FALSE(rule->selector.has_value());
  EXPECT_TRUE(rule->taint.key.empty());
  ASSERT_EQ(rule->conditions.size(), 1u);
  EXPECT_EQ(rule->conditions[0].observed_generation, 0);
  EXPECT_FALSE(Project<DeviceTaintRule>(R"({"metadata":null})").ok());
}

}  // namespace
}  // namespace dra::api
