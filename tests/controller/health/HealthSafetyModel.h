#pragma once

#include <algorithm>
#include <chrono>
#include <string>

namespace dra::health {

// The device-health safety rule (docs/health.md, "The safety rule") written
// once, as a reference model that knows nothing of the reconciler: the
// oracle the property and randomized tests check the reconciler against.
//
// One model follows one DeviceHealth (one source's evidence for one target).
// At every instant the effect of its rule must lie between Floor() and
// Ceiling():
//   - Degraded or Unhealthy, or Unknown after anything worse than Healthy
//     (the device was closed when Unknown came): closed to new allocations,
//     NoSchedule at least, from the first moment;
//   - NoExecute (eviction) only for Unhealthy once its preview is over, or
//     when NoExecute was already in force when the state came (a flap, or
//     Unknown after Unhealthy keeps it);
//   - Healthy: whatever was in force stays for the hold-off, then no rule;
//     only a Healthy state reopens a device, no timer does;
//   - spec.effect (a person's) is what the person asked for, within the state's.
class HealthSafetyModel {
 public:
  // Effects as strengths: no rule < None < NoSchedule < NoExecute.
  static constexpr int kNoRule = -1;
  static constexpr int kNone = 0;
  static constexpr int kNoSchedule = 1;
  static constexpr int kNoExecute = 2;
  using Time = std::chrono::system_clock::time_point;

  HealthSafetyModel(std::chrono::seconds preview, std::chrono::seconds hold_off)
      : preview_(preview), hold_off_(hold_off) {}

  static int Strength(const std::string& effect) {
    if (effect == "NoExecute") return kNoExecute;
    if (effect == "NoSchedule") return kNoSchedule;
    return kNone;
  }

  // spec now says `state` (and `effect`, "" for none); `in_force` is the
  // strength of the object's rule at that moment.
  void Observe(const std::string& state, const std::string& effect, Time now, int in_force) {
    if (state != state_) {
      entered_ = now;
      entered_with_ = in_force;
    }
    state_ = state;
    effect_ = effect;
  }
  // The object is gone (a person deleted it, or its source retired it).
  void Forget() { state_.clear(); }

  bool exists() const { return !state_.empty(); }
  const std::string& state() const { return state_; }

  // The weakest effect the rule allows now.
  int Floor(Time now) const {
    if (state_.empty()) return kNoRule;
    if (state_ == "Healthy") return HeldForHoldOff(now);
    if (Overridden()) return Strength(effect_);
    if (state_ == "Unknown") return entered_with_ >= kNoSchedule ? kNoSchedule : kNone;
    return kNoSchedule;  // Degraded; Unhealthy whatever its preview or the storm guard
  }

  // The strongest effect the rule allows now.
  int Ceiling(Time now) const {
    if (state_.empty()) return kNoRule;
    if (state_ == "Healthy") return HeldForHoldOff(now);
    if (Overridden()) return Strength(effect_);
    if (state_ == "Degraded") return kNoSchedule;
    if (state_ == "Unknown") return entered_with_ >= kNoSchedule ? entered_with_ : kNone;
    bool evicts = now - entered_ >= preview_ || entered_with_ == kNoExecute;
    return evicts ? kNoExecute : kNoSchedule;
  }

  // Healthy and its hold-off over: the rule must be gone.
  bool Reopened(Time now) const { return state_ == "Healthy" && now - entered_ >= hold_off_; }

 private:
  // spec.effect changes the outcome: it is allowed for the state (no
  // stronger than the state's own effect) and weaker than that effect.
  bool Overridden() const {
    if (effect_.empty()) return false;
    int asked = Strength(effect_);
    if (state_ == "Degraded") return asked < kNoSchedule;
    if (state_ == "Unhealthy") return asked < kNoExecute;
    return state_ == "Unknown" && asked == kNone;
  }

  int HeldForHoldOff(Time now) const {
    return now - entered_ >= hold_off_ ? kNoRule : std::max(entered_with_, kNoRule);
  }

  std::chrono::seconds preview_;
  std::chrono::seconds hold_off_;
  std::string state_;  // "" while the object does not exist
  std::string effect_;
  Time entered_{};
  int entered_with_ = kNoRule;
};

}  // namespace dra::health
