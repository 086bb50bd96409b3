#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaint.h"
#include "controller/health/HealthOptions.h"

namespace dra::health {

// Condition reasons of Tainted (also the `reason` of the decision).
inline constexpr char kReasonApplied[] = "Applied";
inline constexpr char kReasonPreview[] = "Preview";
inline constexpr char kReasonHoldOff[] = "HoldOff";
inline constexpr char kReasonStormGuard[] = "StormGuard";
inline constexpr char kReasonHealthy[] = "Healthy";
inline constexpr char kReasonReportOnly[] = "ReportOnly";
// Unknown after a worse state: what is in force stays until a Healthy report.
inline constexpr char kReasonUnknownHolds[] = "UnknownHolds";
inline constexpr char kReasonInvalidState[] = "InvalidState";
inline constexpr char kReasonDeviceNotFound[] = "DeviceNotFound";
// A target by uuid or node + index matches several devices (reconciler only).
inline constexpr char kReasonDeviceAmbiguous[] = "DeviceAmbiguous";

// What one DeviceHealth is, as far as the policy cares.
struct PolicyInput {
  std::optional<api::HealthState> state;              // nullopt: a state this build does not know
  std::optional<api::TaintEffect> requested_effect;   // spec.effect
  std::chrono::system_clock::time_point state_since;  // when `state` was first seen (to the ms)
  std::optional<api::TaintEffect> in_force;           // our rule's effect; nullopt: no rule
  bool device_found = true;  // some ResourceSlice publishes the device (or a device of the pool)
};

struct PolicyDecision {
  bool keep_rule = false;  // a rule should exist (with `effect`)
  api::TaintEffect effect = api::TaintEffect::kNone;
  std::string reason;   // one of the kReason* above
  std::string message;  // why, for the condition and Events
  // The policy changes its mind by itself after this long (preview or hold-off end).
  std::optional<std::chrono::milliseconds> recheck_after;
  // When the running preview or hold-off ends (the instant its messages name).
  std::optional<std::chrono::system_clock::time_point> timer_end;
  // The state asks for NoExecute now (preview over): the storm guard decides.
  bool wants_no_execute = false;
  // spec.effect was outside what the policy allows for the state and was ignored.
  bool override_refused = false;
  // What spec asks for is in force: its effect is on published devices (for
  // Healthy: no rule is left). False while a preview, hold-off or the storm
  // guard defers it, and while the device is not published.
  bool enforced = false;
};

// The device-health policy as a pure function of a DeviceHealth, its
// timers, the rule in force and the storm guard's verdict; time comes in.
// The safety rule it keeps (docs/health.md, "The safety rule"): a device
// whose evidence is Degraded or Unhealthy, or Unknown after anything worse
// than Healthy, is closed to new allocations (NoSchedule at least) from the
// first moment; timers only delay eviction and reopening, and only a Healthy
// report (or a person's spec) reopens it.
//   Degraded -> NoSchedule;
//   Unhealthy -> NoSchedule for the preview, then NoExecute;
//   Unknown -> the effect in force when it was NoSchedule or NoExecute
//              (UnknownHolds), else None (report only);
//   Healthy -> the effect in force for the hold-off, then no rule.
// spec.effect may ask for a weaker effect than the state's; a stronger one is
// refused. A device that goes bad again while a rule is still held keeps its
// effect (no new preview): flapping devices stay out.
class HealthPolicy {
 public:
  explicit HealthPolicy(HealthOptions options) : options_(std::move(options)) {}

  // The state's own effect; nullopt for Healthy (no taint).
  static std::optional<api::TaintEffect> DefaultEffect(api::HealthState state);
  // True when `requested` is no stronger than the state's effect.
  static bool EffectAllowed(api::HealthState state, api::TaintEffect requested);

  // `storm_room`: the storm guard admits this object under NoExecute.
  PolicyDecision Decide(const PolicyInput& input, std::chrono::system_clock::time_point now,
                        bool storm_room) const;

  const HealthOptions& options() const { return options_; }

  // "2026-07-24T11:05:00.930Z": an end time as every message gives it, to the
  // millisecond, the same instant as status.stateSince plus the timer.
  static std::string Until(std::chrono::system_clock::time_point end);

 private:
  PolicyDecision DecideHealthy(const PolicyInput& input,
                               std::chrono::system_clock::time_point now) const;
  PolicyDecision DecideNoExecute(const PolicyInput& input,
                                 std::chrono::system_clock::time_point now, bool storm_room) const;
  PolicyDecision DecideState(const PolicyInput& input, std::chrono::system_clock::time_point now,
                             bool storm_room) const;
  static PolicyDecision DecideUnknown(const PolicyInput& input);

  HealthOptions options_;
};

}  // namespace dra::health
