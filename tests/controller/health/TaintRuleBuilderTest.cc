#include <gtest/gtest.h>

#include "controller/health/TaintRuleBuilder.h"

namespace dra::health {
namespace {

api::DeviceHealth Health(const std::string& reason) {
  api::DeviceHealth h;
  h.meta.name = "node-a-gpu-1";
  h.meta.uid = "uid-1";
  h.driver = "gpu.example.com";
  h.pool = "node-a";
  h.device = "gpu-1";
  h.state_text = "Unhealthy";
  h.reason = reason;
  return h;
}

TEST(TaintRuleBuilderTest, TaintValueIsAValidLabelValue) {
  EXPECT_EQ(TaintRuleBuilder::TaintValue(Health("XidError")), "XidError");
  EXPECT_EQ(TaintRuleBuilder::TaintValue(Health("")), "Unhealthy");
  std::string value = TaintRuleBuilder::TaintValue(Health(std::string(100, 'A')));
  EXPECT_EQ(value.size(), 63u);
  EXPECT_EQ(TaintRuleBuilder::TaintValue(Health("-bad value!-")), "bad-value");
}

TEST(TaintRuleBuilderTest, OwnershipNeedsBothLabelsAndTheDeterministicName) {
  api::DeviceTaintRule rule;
  rule.meta.name = TaintRuleBuilder::RuleName("node-a-gpu-1");
  EXPECT_EQ(rule.meta.name, "devicehealth-node-a-gpu-1");
  EXPECT_FALSE(TaintRuleBuilder::Owns(rule, "node-a-gpu-1"));
  EXPECT_EQ(TaintRuleBuilder::OwnerOf(rule), "");
  rule.meta.labels = {{kManagedByLabel, kManagedByValue}, {kOwnerLabel, "node-a-gpu-1"}};
  EXPECT_TRUE(TaintRuleBuilder::Owns(rule, "node-a-gpu-1"));
  EXPECT_FALSE(TaintRuleBuilder::Owns(rule, "other"));
  EXPECT_EQ(TaintRuleBuilder::OwnerOf(rule), "node-a-gpu-1");
  rule.meta.name = "renamed";
  EXPECT_EQ(TaintRuleBuilder::OwnerOf(rule), "");
}

TEST(TaintRuleBuilderTest, MatchesComparesSelectorAndTaint) {
  auto h = Health("XidError");
  api::DeviceTaintRule rule;
  rule.selector = api::DeviceTaintRule::Selector{"gpu.example.com", "node-a", "gpu-1"};
  rule.taint.key = kTaintKey;
  rule.taint.value = "XidError";
  rule.taint.effect = api::TaintEffect::kNoExecute;
  // Written ahead by a source before the DeviceHealth existed: no owner yet,
  // so the reconciler rewrites it with one.
  EXPECT_FALSE(TaintRuleBuilder::Matches(rule, h, api::TaintEffect::kNoExecute));
  rule.controller_uid = h.meta.uid.str();
  EXPECT_TRUE(TaintRuleBuilder::Matches(rule, h, api::TaintEffect::kNoExecute));
  EXPECT_FALSE(TaintRuleBuilder::Matches(rule, h, api::TaintEffect::kNoSchedule));
  rule.selector->device = "";
  EXPECT_FALSE(TaintRuleBuilder::Matches(rule, h, api::TaintEffect::kNoExecute));
  rule.selector.reset();
  EXPECT_FALSE(TaintRuleBuilder::Matches(rule, h, api::TaintEffect::kNoExecute));
}

}  // namespace
}  // namespace dra::health
