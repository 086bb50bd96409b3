#include <gtest/gtest.h>

#include "controller/health/HealthPolicy.h"

namespace dra::health {
namespace {

using api::HealthState;
using api::TaintEffect;
using namespace std::chrono_literals;
using Time = std::chrono::system_clock::time_point;

const Time kT0 = Time(std::chrono::seconds(1'800'000'000));

HealthPolicy Policy(std::chrono::seconds preview = 30s, std::chrono::seconds hold_off = 300s) {
  HealthOptions options;
  options.preview = preview;
  options.hold_off = hold_off;
  return HealthPolicy(options);
}

PolicyInput In(HealthState state, Time since, std::optional<TaintEffect> in_force = std::nullopt,
               std::optional<TaintEffect> requested = std::nullopt) {
  return {state, requested, since, in_force};
}

TEST(HealthPolicyTest, EffectByState) {
  auto policy = Policy(0s);
  auto degraded = policy.Decide(In(HealthState::kDegraded, kT0), kT0, true);
  EXPECT_TRUE(degraded.keep_rule);
  EXPECT_EQ(degraded.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(degraded.reason, kReasonApplied);
  auto unknown = policy.Decide(In(HealthState::kUnknown, kT0), kT0, true);
  EXPECT_TRUE(unknown.keep_rule);
  EXPECT_EQ(unknown.effect, TaintEffect::kNone);
  EXPECT_EQ(unknown.reason, kReasonReportOnly);
  auto unhealthy = policy.Decide(In(HealthState::kUnhealthy, kT0), kT0, true);
  EXPECT_EQ(unhealthy.effect, TaintEffect::kNoExecute);
  EXPECT_TRUE(unhealthy.wants_no_execute);
  auto healthy = policy.Decide(In(HealthState::kHealthy, kT0), kT0, true);
  EXPECT_FALSE(healthy.keep_rule);
  EXPECT_EQ(healthy.reason, kReasonHealthy);
}

// The preview defers eviction only: an Unhealthy device is closed to new
// Pods (NoSchedule) from its first moment, then NoExecute.
TEST(HealthPolicyTest, PreviewThenNoExecute) {
  auto policy = Policy(30s);
  auto first = policy.Decide(In(HealthState::kUnhealthy, kT0), kT0, true);
  EXPECT_TRUE(first.keep_rule);
  EXPECT_EQ(first.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(first.reason, kReasonPreview);
  EXPECT_FALSE(first.wants_no_execute);
  ASSERT_TRUE(first.recheck_after.has_value());
  EXPECT_EQ(*first.recheck_after, 30s);
  auto almost =
      policy.Decide(In(HealthState::kUnhealthy, kT0, TaintEffect::kNoSchedule), kT0 + 29s, true);
  EXPECT_EQ(almost.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(*almost.recheck_after, 1s);
  auto after =
      policy.Decide(In(HealthState::kUnhealthy, kT0, TaintEffect::kNoSchedule), kT0 + 30s, true);
  EXPECT_EQ(after.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(after.reason, kReasonApplied);
  EXPECT_FALSE(after.recheck_after.has_value());
}

// Issue 46: Healthy -> Unhealthy and Unknown (None in force) -> Unhealthy
// opened the device for the preview; a Pending Pod bound to it at once.
TEST(HealthPolicyTest, UnhealthyIsClosedFromTheFirstMomentWhateverWasInForce) {
  auto policy = Policy(30s);
  for (std::optional<TaintEffect> before :
       {std::optional<TaintEffect>(), std::optional(TaintEffect::kNone)}) {
    auto preview = policy.Decide(In(HealthState::kUnhealthy, kT0, before), kT0, true);
    EXPECT_EQ(preview.effect, TaintEffect::kNoSchedule);
    EXPECT_NE(preview.message.find("NoSchedule until"), std::string::npos) << preview.message;
  }
}

// Issue 46: Unhealthy -> Unknown and Degraded -> Unknown lifted the taint at
// once. Unknown after anything worse than Healthy keeps what is in force.
TEST(HealthPolicyTest, UnknownAfterWorseThanHealthyKeepsTheEffectInForce) {
  auto policy = Policy(30s, 300s);
  for (TaintEffect held : {TaintEffect::kNoSchedule, TaintEffect::kNoExecute}) {
    auto d = policy.Decide(In(HealthState::kUnknown, kT0, held), kT0 + 3600s, true);
    EXPECT_TRUE(d.keep_rule);
    EXPECT_EQ(d.effect, held);
    EXPECT_EQ(d.reason, kReasonUnknownHolds);
    EXPECT_FALSE(d.recheck_after.has_value()) << "no timer reopens it";
    EXPECT_NE(d.message.find("Healthy"), std::string::npos) << d.message;
  }
  // After Healthy (or nothing) Unknown only reports.
  for (std::optional<TaintEffect> before :
       {std::optional<TaintEffect>(), std::optional(TaintEffect::kNone)}) {
    auto d = policy.Decide(In(HealthState::kUnknown, kT0, before), kT0, true);
    EXPECT_EQ(d.effect, TaintEffect::kNone);
    EXPECT_EQ(d.reason, kReasonReportOnly);
  }
  // A person who writes spec.effect None for Unknown decides so.
  auto released = policy.Decide(
      In(HealthState::kUnknown, kT0, TaintEffect::kNoSchedule, TaintEffect::kNone), kT0, true);
  EXPECT_EQ(released.effect, TaintEffect::kNone);
}

// Issue 38: a Degraded GPU (NoSchedule) that turns Unhealthy went to None
// for the preview, and the scheduler placed a Pending Pod on it at once.
TEST(HealthPolicyTest, EscalationPreviewKeepsNoScheduleInForce) {
  auto policy = Policy(30s);
  auto preview =
      policy.Decide(In(HealthState::kUnhealthy, kT0, TaintEffect::kNoSchedule), kT0, true);
  EXPECT_TRUE(preview.keep_rule);
  EXPECT_EQ(preview.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(preview.reason, kReasonPreview);
  EXPECT_NE(preview.message.find("effect NoSchedule until"), std::string::npos) << preview.message;
  ASSERT_TRUE(preview.recheck_after.has_value());
  EXPECT_EQ(*preview.recheck_after, 30s);
  auto after =
      policy.Decide(In(HealthState::kUnhealthy, kT0, TaintEffect::kNoSchedule), kT0 + 30s, true);
  EXPECT_EQ(after.effect, TaintEffect::kNoExecute);
}

TEST(HealthPolicyTest, EnforcedOnlyOnceWhatSpecAsksForIsInForce) {
  auto policy = Policy(30s, 300s);
  EXPECT_TRUE(policy.Decide(In(HealthState::kDegraded, kT0), kT0, true).enforced);
  EXPECT_TRUE(policy.Decide(In(HealthState::kUnknown, kT0), kT0, true).enforced);
  EXPECT_FALSE(policy.Decide(In(HealthState::kUnhealthy, kT0), kT0, true).enforced);
  EXPECT_TRUE(policy.Decide(In(HealthState::kUnhealthy, kT0), kT0 + 30s, true).enforced);
  EXPECT_FALSE(policy.Decide(In(HealthState::kUnhealthy, kT0), kT0 + 30s, false).enforced);
  auto held = In(HealthState::kHealthy, kT0, TaintEffect::kNoSchedule);
  EXPECT_FALSE(policy.Decide(held, kT0, true).enforced);
  EXPECT_TRUE(policy.Decide(held, kT0 + 300s, true).enforced);
  EXPECT_TRUE(policy.Decide(In(HealthState::kHealthy, kT0), kT0, true).enforced);
}

TEST(HealthPolicyTest, UnpublishedDeviceKeepsTheRuleButIsNotSaidToBeTainted) {
  auto input = In(HealthState::kUnhealthy, kT0);
  input.device_found = false;
  auto d = Policy(0s).Decide(input, kT0, true);
  EXPECT_TRUE(d.keep_rule);
  EXPECT_EQ(d.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(d.reason, kReasonDeviceNotFound);
  EXPECT_FALSE(d.enforced);
  EXPECT_NE(d.message.find("nothing is tainted"), std::string::npos) << d.message;
}

TEST(HealthPolicyTest, ZeroPreviewGoesStraightToNoExecute) {
  auto d = Policy(0s).Decide(In(HealthState::kUnhealthy, kT0), kT0, true);
  EXPECT_EQ(d.effect, TaintEffect::kNoExecute);
}

TEST(HealthPolicyTest, HoldOffKeepsTheTaintThenLiftsIt) {
  auto policy = Policy(30s, 300s);
  auto held =
      policy.Decide(In(HealthState::kHealthy, kT0, TaintEffect::kNoExecute), kT0 + 10s, true);
  EXPECT_TRUE(held.keep_rule);
  EXPECT_EQ(held.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(held.reason, kReasonHoldOff);
  EXPECT_EQ(*held.recheck_after, 290s);
  auto lifted =
      policy.Decide(In(HealthState::kHealthy, kT0, TaintEffect::kNoExecute), kT0 + 300s, true);
  EXPECT_FALSE(lifted.keep_rule);
  EXPECT_EQ(lifted.reason, kReasonHealthy);
}

TEST(HealthPolicyTest, FlappingInsideHoldOffKeepsNoExecuteWithoutNewPreview) {
  auto policy = Policy(30s, 300s);
  // NoExecute in force, recovered at kT0, bad again 60 s later (inside the hold-off).
  auto held =
      policy.Decide(In(HealthState::kHealthy, kT0, TaintEffect::kNoExecute), kT0 + 60s, true);
  ASSERT_TRUE(held.keep_rule);
  auto again = policy.Decide(In(HealthState::kUnhealthy, kT0 + 60s, held.effect), kT0 + 60s, true);
  EXPECT_TRUE(again.keep_rule);
  EXPECT_EQ(again.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(again.reason, kReasonApplied);
}

TEST(HealthPolicyTest, OverrideWithinPolicyIsUsedOutsideIsRefused) {
  auto policy = Policy(0s);
  auto weaker = policy.Decide(
      In(HealthState::kUnhealthy, kT0, std::nullopt, TaintEffect::kNoSchedule), kT0, true);
  EXPECT_EQ(weaker.effect, TaintEffect::kNoSchedule);
  EXPECT_FALSE(weaker.override_refused);
  auto stronger = policy.Decide(
      In(HealthState::kDegraded, kT0, std::nullopt, TaintEffect::kNoExecute), kT0, true);
  EXPECT_EQ(stronger.effect, TaintEffect::kNoSchedule);
  EXPECT_TRUE(stronger.override_refused);
  EXPECT_NE(stronger.message.find("not allowed"), std::string::npos);
  EXPECT_FALSE(HealthPolicy::EffectAllowed(HealthState::kUnknown, TaintEffect::kNoSchedule));
  EXPECT_FALSE(HealthPolicy::EffectAllowed(HealthState::kHealthy, TaintEffect::kNone));
  EXPECT_TRUE(HealthPolicy::EffectAllowed(HealthState::kUnhealthy, TaintEffect::kNone));
}

TEST(HealthPolicyTest, StormGuardVerdictDowngradesToNoSchedule) {
  auto d = Policy(0s).Decide(In(HealthState::kUnhealthy, kT0), kT0, false);
  EXPECT_EQ(d.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(d.reason, kReasonStormGuard);
  EXPECT_TRUE(d.wants_no_execute);
}

TEST(HealthPolicyTest, UnknownStateKeepsWhatIsThereAndAddsNothing) {
  PolicyInput input{std::nullopt, std::nullopt, kT0, std::nullopt};
  auto none = Policy().Decide(input, kT0, true);
  EXPECT_FALSE(none.keep_rule);
  EXPECT_EQ(none.reason, kReasonInvalidState);
  input.in_force = TaintEffect::kNoSchedule;
  auto kept = Policy().Decide(input, kT0, true);
  EXPECT_TRUE(kept.keep_rule);
  EXPECT_EQ(kept.effect, TaintEffect::kNoSchedule);
}

}  // namespace
}  // namespace dra::health
