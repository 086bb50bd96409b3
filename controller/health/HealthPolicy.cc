#include "controller/health/HealthPolicy.h"

#include "src/base/Rfc3339.h"

namespace dra::health {
namespace {

using api::HealthState;
using api::TaintEffect;
using std::chrono::milliseconds;

int Strength(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule:
      return 1;
    case TaintEffect::kNoExecute:
      return 2;
    default:
      return 0;
  }
}

std::string EffectText(TaintEffect effect) {
  api::DeviceTaint taint;
  taint.effect = effect;
  return taint.EffectName();
}

// Rounded up, so the recheck never comes before the end.
milliseconds Left(std::chrono::system_clock::time_point end,
                  std::chrono::system_clock::time_point now) {
  auto left = std::chrono::ceil<milliseconds>(end - now);
  return left < milliseconds(1) ? milliseconds(1) : left;
}

PolicyDecision Rule(TaintEffect effect, std::string reason, std::string message) {
  PolicyDecision d;
  d.keep_rule = true;
  d.effect = effect;
  d.reason = std::move(reason);
  d.message = std::move(message);
  return d;
}

}  // namespace

// A fixed end time keeps the message (and so the status) unchanged while a
// timer runs, where a countdown would rewrite it.
std::string HealthPolicy::Until(std::chrono::system_clock::time_point end) {
  auto millis = std::chrono::ceil<milliseconds>(end.time_since_epoch()).count();
  return kube::Rfc3339::FormatMillis(millis);
}

std::optional<TaintEffect> HealthPolicy::DefaultEffect(HealthState state) {
  switch (state) {
    case HealthState::kDegraded:
      return TaintEffect::kNoSchedule;
    case HealthState::kUnhealthy:
      return TaintEffect::kNoExecute;
    case HealthState::kUnknown:
      return TaintEffect::kNone;
    case HealthState::kHealthy:
      break;
  }
  return std::nullopt;
}

bool HealthPolicy::EffectAllowed(HealthState state, TaintEffect requested) {
  auto max = DefaultEffect(state);
  return max.has_value() && requested != TaintEffect::kUnknown &&
         Strength(requested) <= Strength(*max);
}

PolicyDecision HealthPolicy::Decide(const PolicyInput& input,
                                    std::chrono::system_clock::time_point now,
                                    bool storm_room) const {
  if (!input.state.has_value()) {
    PolicyDecision d;
    d.keep_rule = input.in_force.has_value();  // keep what is there, add nothing
    d.effect = input.in_force.value_or(TaintEffect::kNone);
    d.reason = kReasonInvalidState;
    d.message = "spec.state is not one of Healthy, Degraded, Unhealthy, Unknown";
    return d;
  }
  PolicyDecision d = *input.state == HealthState::kHealthy ? DecideHealthy(input, now)
                                                           : DecideState(input, now, storm_room);
  if (input.device_found || !d.keep_rule) return d;
  // The rule is kept, so the device is tainted as soon as it is published,
  // but it taints nothing now and the status must not say otherwise.
  d.message = "no ResourceSlice publishes the device, so nothing is tainted; its rule (effect " +
              EffectText(d.effect) + ") applies once it is published. " + d.reason + ": " +
              d.message;
  d.reason = kReasonDeviceNotFound;
  d.enforced = false;
  return d;
}

PolicyDecision HealthPolicy::DecideState(const PolicyInput& input,
                                         std::chrono::system_clock::time_point now,
                                         bool storm_room) const {
  TaintEffect target = *DefaultEffect(*input.state);
  bool refused = false;
  if (input.requested_effect.has_value()) {
    if (EffectAllowed(*input.state, *input.requested_effect)) {
      target = *input.requested_effect;
    } else {
      refused = true;
    }
  }
  PolicyDecision d;
  if (target == TaintEffect::kNoExecute) {
    d = DecideNoExecute(input, now, storm_room);
  } else if (*input.state == HealthState::kUnknown && (refused || !input.requested_effect)) {
    d = DecideUnknown(input);
  } else if (target == TaintEffect::kNone && *input.state == HealthState::kUnknown) {
    d = Rule(target, kReasonReportOnly, "state Unknown: taint with effect None, report only");
    d.enforced = true;
  } else {
    d = Rule(target, kReasonApplied, "taint " + EffectText(target) + " applied");
    d.enforced = true;
  }
  d.override_refused = refused;
  if (refused) {
    d.message += "; spec.effect " + EffectText(*input.requested_effect) + " is not allowed for " +
                 std::string(api::HealthStateName(*input.state)) + " and was ignored";
  }
  return d;
}

// Unknown says nothing either way: silence from a source is no reason to
// reopen a device it closed, and no reason to close one it did not.
PolicyDecision HealthPolicy::DecideUnknown(const PolicyInput& input) {
  TaintEffect held = input.in_force.value_or(TaintEffect::kNone);
  if (Strength(held) < Strength(TaintEffect::kNoSchedule)) {
    PolicyDecision d = Rule(TaintEffect::kNone, kReasonReportOnly,
                            "state Unknown: taint with effect None, report only");
    d.enforced = true;
    return d;
  }
  PolicyDecision d = Rule(held, kReasonUnknownHolds,
                          "state Unknown after a worse state: effect " + EffectText(held) +
                              " kept until the source reports Healthy or a person sets the state");
  d.enforced = true;
  return d;
}

PolicyDecision HealthPolicy::DecideHealthy(const PolicyInput& input,
                                           std::chrono::system_clock::time_point now) const {
  PolicyDecision d;
  d.reason = kReasonHealthy;
  d.enforced = true;
  if (!input.in_force.has_value()) {
    d.message = "device healthy, no taint";
    return d;
  }
  auto end = input.state_since + options_.hold_off;
  if (now >= end) {
    d.message = "device healthy, hold-off over: taint removed";
    return d;
  }
  d.enforced = false;
  d.keep_rule = true;
  d.effect = *input.in_force;
  d.reason = kReasonHoldOff;
  d.recheck_after = Left(end, now);
  d.timer_end = end;
  d.message = "device healthy; taint " + EffectText(d.effect) + " kept for the hold-off, until " +
              Until(end);
  return d;
}

PolicyDecision HealthPolicy::DecideNoExecute(const PolicyInput& input,
                                             std::chrono::system_clock::time_point now,
                                             bool storm_room) const {
  bool already = input.in_force == TaintEffect::kNoExecute;
  auto end = input.state_since + options_.preview;
  if (!already && options_.preview.count() > 0 && now < end) {
    // The preview defers eviction and nothing else: the device is closed to
    // new Pods from the first moment (NoSchedule), or the scheduler would
    // place Pods on a sick device only to have them evicted when it ends.
    PolicyDecision d = Rule(TaintEffect::kNoSchedule, kReasonPreview, "");
    d.recheck_after = Left(end, now);
    d.timer_end = end;
    d.message = "preview: effect NoSchedule until " + Until(end) + ", then NoExecute";
    return d;
  }
  if (!storm_room) {
    PolicyDecision d =
        Rule(TaintEffect::kNoSchedule, kReasonStormGuard,
             "storm guard: too many devices of this pool or driver are under NoExecute; "
             "NoSchedule until room frees up");
    d.wants_no_execute = true;
    return d;
  }
  PolicyDecision d = Rule(TaintEffect::kNoExecute, kReasonApplied, "taint NoExecute applied");
  d.wants_no_execute = true;
  d.enforced = true;
  return d;
}

}  // namespace dra::health
