#include "controller/health/HealthPolicy.h"

#include <ctime>

namespace dra::health {
namespace {

using api::HealthState;
using api::TaintEffect;
using std::chrono::seconds;

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

seconds Left(std::chrono::system_clock::time_point end, std::chrono::system_clock::time_point now) {
  auto left = std::chrono::ceil<seconds>(end - now);
  return left < seconds(1) ? seconds(1) : left;
}

// "2026-07-24T11:05:00Z": a fixed end time keeps the message (and so the
// status) unchanged while a timer runs, where a countdown would rewrite it.
std::string Until(std::chrono::system_clock::time_point end) {
  std::time_t t =
      std::chrono::system_clock::to_time_t(std::chrono::ceil<std::chrono::seconds>(end));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
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
  if (*input.state == HealthState::kHealthy) return DecideHealthy(input, now);
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
  } else if (target == TaintEffect::kNone && *input.state == HealthState::kUnknown) {
    d = Rule(target, kReasonReportOnly, "state Unknown: taint with effect None, report only");
  } else {
    d = Rule(target, kReasonApplied, "taint " + EffectText(target) + " applied");
  }
  d.override_refused = refused;
  if (refused) {
    d.message += "; spec.effect " + EffectText(*input.requested_effect) + " is not allowed for " +
                 std::string(api::HealthStateName(*input.state)) + " and was ignored";
  }
  return d;
}

PolicyDecision HealthPolicy::DecideHealthy(const PolicyInput& input,
                                           std::chrono::system_clock::time_point now) const {
  PolicyDecision d;
  d.reason = kReasonHealthy;
  if (!input.in_force.has_value()) {
    d.message = "device healthy, no taint";
    return d;
  }
  auto end = input.state_since + options_.hold_off;
  if (now >= end) {
    d.message = "device healthy, hold-off over: taint removed";
    return d;
  }
  d.keep_rule = true;
  d.effect = *input.in_force;
  d.reason = kReasonHoldOff;
  d.recheck_after = Left(end, now);
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
    PolicyDecision d = Rule(TaintEffect::kNone, kReasonPreview, "");
    d.recheck_after = Left(end, now);
    d.message = "preview: effect None until " + Until(end) + ", then NoExecute";
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
  return d;
}

}  // namespace dra::health
