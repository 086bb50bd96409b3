#include "controller/health/DeviceHealthReconciler.h"

#include <spdlog/spdlog.h>

#include "controller/health/EvictionTolerance.h"
#include "controller/health/HealthStatusBuilder.h"
#include "controller/health/StormGuard.h"
#include "controller/health/TaintRuleBuilder.h"
#include "src/events/EventRecorder.h"

namespace dra::health {
namespace {

using api::TaintEffect;
using std::chrono::system_clock;

std::string EffectText(TaintEffect effect) {
  api::DeviceTaint taint;
  taint.effect = effect;
  return taint.EffectName();
}

// Rounded up: a timer run from the stored time never ends early.
int64_t Millis(system_clock::time_point t) {
  return std::chrono::ceil<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

// A target that names no driver and pool yet (not found, or ambiguous with
// no rule written before) has no rule: no timer runs until it has one, so a
// target that resolves later starts its preview then, on the device.
bool Addressed(const api::DeviceHealth& target) {
  return !target.driver.empty() && !target.pool.empty();
}

kube::ObjectReference RefOf(const api::DeviceHealth& health) {
  return {
      "dra-controller.dev/v1alpha1", "DeviceHealth", "", health.meta.name, health.meta.uid.str(),
      health.meta.resource_version};
}

std::string Target(const api::DeviceHealth& h) {
  if (h.driver.empty() || h.pool.empty()) return "device not found";
  return h.driver + "/" + h.pool + (h.device.empty() ? " (whole pool)" : "/" + h.device);
}

// How the spec names its device, for messages about a lookup.
std::string SpecTarget(const api::DeviceHealth& h) {
  std::string driver = h.driver.empty() ? "" : " of driver " + h.driver;
  if (!h.uuid.empty()) return "uuid " + h.uuid + driver;
  return "node " + h.node + " index " + std::to_string(h.index.value_or(0)) + driver;
}

std::string AmbiguityMessage(const api::DeviceHealth& h, const TargetResolution& r) {
  return std::to_string(r.matches) + " published devices match " + SpecTarget(h) +
         "; set spec.driver, or name pool and device";
}

// What happens to the rule of a target that names several devices: one
// written while it named a single device stays; none is written otherwise.
std::string AmbiguousRule(const api::DeviceHealth& effective) {
  if (effective.driver.empty() || effective.pool.empty()) {
    return "no DeviceTaintRule is written until it names one device";
  }
  return "the rule written for " + effective.driver + "/" + effective.pool + "/" +
         effective.device + " stays until it names one device";
}

// The storm guard counts devices by name, so overlapping DeviceHealths
// (a whole pool and a device of it) do not count a device twice.
std::vector<std::string> DeviceNames(const ScopeView& scope) {
  std::vector<std::string> names;
  for (const auto& d : scope.devices) names.push_back(d.key.device);
  return names;
}

}  // namespace

DeviceHealthReconciler::DeviceHealthReconciler(HealthSources sources,
                                               std::shared_ptr<HealthWriter> writer, EventFn events,
                                               std::shared_ptr<kube::Clock> clock,
                                               HealthOptions options,
                                               std::shared_ptr<HealthMetrics> metrics)
    : sources_(sources),
      writer_(std::move(writer)),
      events_(std::move(events)),
      clock_(std::move(clock)),
      policy_(options),
      metrics_(metrics ? std::move(metrics) : std::make_shared<HealthMetrics>(nullptr)),
      own_writes_(kOwnWritesPatience) {}

void DeviceHealthReconciler::NoteChange(const std::string& key) {
  std::lock_guard lock(mu_);
  changed_at_.emplace(key, clock_->Now());  // the oldest unhandled change counts
}

std::vector<std::string> DeviceHealthReconciler::HeldKeys() const {
  std::lock_guard lock(mu_);
  return {held_.begin(), held_.end()};
}

void DeviceHealthReconciler::SetHeld(const std::string& key, bool held) {
  std::lock_guard lock(mu_);
  if (held) {
    held_.insert(key);
  } else {
    held_.erase(key);
  }
}

kube::ReconcileResult DeviceHealthReconciler::Reconcile(const std::string& key) {
  auto health = sources_.healths->Get(key);
  auto rule = sources_.rules ? sources_.rules->Get(TaintRuleBuilder::RuleName(key)) : nullptr;
  bool ours = rule && TaintRuleBuilder::Owns(*rule, key);
  if (!health || health->meta.deleting) return Remove(key, rule, ours);
  std::string rule_rv = rule ? rule->meta.resource_version : "";
  if (auto wait = own_writes_.Wait(key, health->meta.resource_version, rule_rv, clock_->Now())) {
    return kube::ReconcileResult::RequeueAfter(*wait);  // the watch brings our writes first
  }
  if (rule && !ours) return ReportForeign(*health);
  const api::DeviceTaintRule* own_rule = ours ? rule.get() : nullptr;
  auto now = clock_->WallNow();
  TargetResolution resolution = Resolver().Resolve(*health);
  // From here on the target names driver, pool and device, whatever form spec uses.
  api::DeviceHealth target = TargetResolver::Effective(*health, resolution, own_rule);
  PolicyInput input = InputOf(target, own_rule, now);
  ScopeView scope = Scope(target);
  input.device_found = resolution.resolved() && !scope.devices.empty();
  std::unique_lock admission(admission_mu_, std::defer_lock);
  if (policy_.Decide(input, now, true).wants_no_execute) admission.lock();
  StormVerdict storm = StormCheck(target, input, scope, now);
  PolicyDecision decision = policy_.Decide(input, now, storm.admitted);
  if (decision.reason == kReasonStormGuard) {
    decision.message = storm.Message(policy_.options().storm_share);
  }
  if (decision.reason == kReasonPreview) ExplainPreviewEnd(target, scope, decision);
  if (!Addressed(target)) decision.recheck_after.reset();
  if (resolution.outcome == TargetResolution::Outcome::kAmbiguous && decision.keep_rule) {
    decision.reason = kReasonDeviceAmbiguous;
    decision.enforced = false;
    decision.message = AmbiguityMessage(*health, resolution) + "; " + AmbiguousRule(target);
  }
  if (decision.keep_rule && decision.effect == TaintEffect::kNone &&
      !policy_.options().none_effect_served) {
    // A report-only rule where the API has no effect None (1.34): no rule at all.
    decision.keep_rule = false;
    decision.message += " (this cluster's DeviceTaintRule API has no effect None: no rule)";
  }
  SetHeld(key, decision.reason == kReasonStormGuard);

  Write wrote = Write::kNothing;
  if (kube::Status s = WriteRule(target, decision, own_rule, wrote); !s.ok()) {
    return kube::ReconcileResult::Error(s);
  }
  NoteNoExecute(key, target, scope, decision, Millis(input.state_since));
  if (admission.owns_lock()) admission.unlock();
  OwnWrites::Write written;
  if (wrote != Write::kNothing) written.rule_rv = rule_rv;
  RecordEvents(target, input, decision, scope);
  RecordMetrics(target, input, decision, scope, wrote);
  bool status_written = false;
  Resolved resolved{resolution, TargetResolver::Describe(*health, resolution),
                    health->NamesPool() ? "" : SpecTarget(*health)};
  kube::Status s = WriteStatus(target, resolved, input, decision, scope, own_rule, status_written);
  if (status_written) written.health_rv = health->meta.resource_version;
  // Without a resourceVersion (fakes only) there is nothing to compare.
  if (!health->meta.resource_version.empty()) {
    own_writes_.Record(key, std::move(written), clock_->Now());
  }
  if (!s.ok()) return kube::ReconcileResult::Error(s);
  if (decision.recheck_after) return kube::ReconcileResult::RequeueAfter(*decision.recheck_after);
  return kube::ReconcileResult::Done();
}

kube::ReconcileResult DeviceHealthReconciler::Remove(
    const std::string& key, const std::shared_ptr<const api::DeviceTaintRule>& rule, bool ours) {
  SetHeld(key, false);
  {
    std::lock_guard lock(no_execute_mu_);
    no_execute_.erase(key);
  }
  metrics_->Forget(key);
  own_writes_.Forget(key);
  {
    std::lock_guard lock(mu_);
    changed_at_.erase(key);
  }
  if (!ours || policy_.options().dry_run) return kube::ReconcileResult::Done();
  if (kube::Status s = writer_->DeleteRule(rule->meta.name, rule->meta.uid.str()); !s.ok()) {
    return kube::ReconcileResult::Error(s);
  }
  metrics_->Removed(EffectText(rule->taint.effect));
  spdlog::info("DeviceHealth {} is gone: deleted DeviceTaintRule {}", key, rule->meta.name);
  return kube::ReconcileResult::Done();
}

kube::ReconcileResult DeviceHealthReconciler::ReportForeign(const api::DeviceHealth& health) {
  std::string name = TaintRuleBuilder::RuleName(health.meta.name);
  DesiredStatus desired;
  desired.observed_generation = health.generation;
  desired.observed_state = health.status.observed_state;
  desired.state_since_ms = health.status.state_since_ms;
  std::string why =
      "DeviceTaintRule " + name + " exists and was not created by dra-controller; it is left alone";
  desired.conditions = {{"Tainted", "False", "RuleNameTaken", why},
                        {"Enforced", "False", "RuleNameTaken", why}};
  auto status = HealthStatusBuilder::Render(desired, health, clock_->WallNow());
  if (status == HealthStatusBuilder::Current(health)) return kube::ReconcileResult::Done();
  events_(RefOf(health), kube::kEventTypeWarning, "RuleNameTaken", desired.conditions[0].message);
  kube::Status s = writer_->PatchStatus(health.meta.name, status);
  return s.ok() ? kube::ReconcileResult::Done() : kube::ReconcileResult::Error(s);
}

PolicyInput DeviceHealthReconciler::InputOf(const api::DeviceHealth& health,
                                            const api::DeviceTaintRule* ours,
                                            system_clock::time_point now) const {
  PolicyInput input;
  input.state = health.state;
  input.requested_effect = health.effect;
  bool same_state = health.status.observed_state == health.state_text;
  input.state_since =
      same_state && health.status.state_since_ms > 0 && Addressed(health)
          ? system_clock::time_point(std::chrono::milliseconds(health.status.state_since_ms))
          : now;
  // What we last put in force (status remembers it across restarts and
  // survives someone deleting the rule); else what our rule says.
  if (!health.status.effect.empty()) {
    input.in_force = api::ParseTaintEffect(health.status.effect);
  } else if (ours != nullptr) {
    input.in_force = ours->taint.EffectiveEffect();
  }
  return input;
}

// Every other DeviceHealth whose devices are under NoExecute or ask for it
// counts, whatever its state: a Healthy device in its hold-off still keeps
// NoExecute (status.effect says what is in force).
StormVerdict DeviceHealthReconciler::StormCheck(const api::DeviceHealth& health,
                                                const PolicyInput& input, const ScopeView& scope,
                                                system_clock::time_point now) const {
  if (!policy_.Decide(input, now, true).wants_no_execute) return StormVerdict{.admitted = true};
  std::vector<StormCandidate> candidates;
  TargetResolver resolver = Resolver();
  for (const auto& other : sources_.healths->List()) {
    if (other->meta.name == health.meta.name || other->meta.deleting) continue;
    api::DeviceHealth other_target =
        TargetResolver::Effective(*other, resolver.Resolve(*other), nullptr);
    PolicyInput other_input = InputOf(other_target, nullptr, now);
    bool wants = policy_.Decide(other_input, now, true).wants_no_execute;
    bool under = other_input.in_force == TaintEffect::kNoExecute;
    if (!wants && !under) continue;
    candidates.push_back({other->meta.name, other_target.driver, other_target.pool,
                          DeviceNames(Scope(other_target)), under, Millis(other_input.state_since),
                          wants});
  }
  AddNoExecuteInMemory(health.meta.name, candidates);
  candidates.push_back({health.meta.name, health.driver, health.pool, DeviceNames(scope),
                        input.in_force == TaintEffect::kNoExecute, Millis(input.state_since)});
  StormGuard guard(policy_.options().storm_share);
  auto verdicts = guard.Decide(std::move(candidates), DeviceScope::Fleet(*sources_.inventory));
  auto it = verdicts.find(health.meta.name);
  return it == verdicts.end() ? StormVerdict{.admitted = true} : it->second;
}

// A preview whose NoExecute the storm guard can never admit (the target
// alone covers more devices than the cap) says so, instead of "then NoExecute".
void DeviceHealthReconciler::ExplainPreviewEnd(const api::DeviceHealth& target,
                                               const ScopeView& scope,
                                               PolicyDecision& decision) const {
  if (!decision.timer_end || !Addressed(target)) return;
  StormCandidate alone{target.meta.name, target.driver, target.pool, DeviceNames(scope)};
  double share = policy_.options().storm_share;
  StormVerdict verdict = StormGuard(share).Alone(alone, DeviceScope::Fleet(*sources_.inventory));
  if (!verdict.never_fits) return;
  decision.message = "preview: effect NoSchedule until " +
                     HealthPolicy::Until(*decision.timer_end) +
                     "; no NoExecute follows: " + verdict.Message(share);
}

void DeviceHealthReconciler::NoteNoExecute(const std::string& key, const api::DeviceHealth& target,
                                           const ScopeView& scope, const PolicyDecision& decision,
                                           int64_t since_ms) {
  bool in_force = decision.keep_rule && decision.effect == TaintEffect::kNoExecute &&
                  !policy_.options().dry_run && !target.driver.empty() && !target.pool.empty();
  std::lock_guard lock(no_execute_mu_);
  if (!in_force) {
    no_execute_.erase(key);
    return;
  }
  no_execute_[key] = {key, target.driver, target.pool, DeviceNames(scope), true, since_ms, false};
}

// What this process put under NoExecute is under NoExecute, whatever the
// cached status says yet: it is never outranked by a newcomer.
void DeviceHealthReconciler::AddNoExecuteInMemory(const std::string& self,
                                                  std::vector<StormCandidate>& candidates) const {
  std::lock_guard lock(no_execute_mu_);
  std::set<std::string> present{self};
  for (auto& c : candidates) {
    present.insert(c.key);
    if (no_execute_.contains(c.key)) c.under_no_execute = true;
  }
  for (const auto& [key, candidate] : no_execute_) {
    if (!present.contains(key)) candidates.push_back(candidate);
  }
}

kube::Status DeviceHealthReconciler::WriteRule(const api::DeviceHealth& health,
                                               const PolicyDecision& decision,
                                               const api::DeviceTaintRule* ours, Write& wrote) {
  if (policy_.options().dry_run) return kube::Status::Ok();
  // A target that resolves to nothing and has no rule yet: a rule without
  // driver and pool would select every device of the cluster.
  if (decision.keep_rule && !Addressed(health)) return kube::Status::Ok();
  if (decision.keep_rule) {
    if (ours && TaintRuleBuilder::Matches(*ours, health, decision.effect))
      return kube::Status::Ok();
    KUBE_RETURN_IF_ERROR(writer_->ApplyRule(TaintRuleBuilder::Build(health, decision.effect)));
    bool same = ours && ours->taint.effect == decision.effect;
    wrote = same ? Write::kSameEffect : Write::kNewEffect;
    spdlog::info("DeviceHealth {}: DeviceTaintRule {} {} with effect {} ({})", health.meta.name,
                 TaintRuleBuilder::RuleName(health.meta.name), ours ? "updated" : "applied",
                 EffectText(decision.effect), decision.reason);
    return kube::Status::Ok();
  }
  if (!ours) return kube::Status::Ok();
  KUBE_RETURN_IF_ERROR(writer_->DeleteRule(ours->meta.name, ours->meta.uid.str()));
  wrote = Write::kDeleted;
  spdlog::info("DeviceHealth {}: DeviceTaintRule {} removed ({})", health.meta.name,
               ours->meta.name, decision.reason);
  return kube::Status::Ok();
}

// Enforced: what spec asks for is in force on the cluster, the condition
// `kubectl wait --for=condition=Enforced` waits on (Tainted is also True
// during a preview or hold-off).
ConditionValue DeviceHealthReconciler::EnforcedCondition(const PolicyDecision& decision) const {
  if (policy_.options().dry_run) {
    return {"Enforced", "False", policy_.options().dry_run_reason,
            policy_.options().dry_run_message};
  }
  if (!decision.enforced) return {"Enforced", "False", decision.reason, decision.message};
  if (!decision.keep_rule) return {"Enforced", "True", decision.reason, "no taint, as spec asks"};
  return {"Enforced", "True", decision.reason,
          "effect " + EffectText(decision.effect) + " in force, as spec asks"};
}

std::vector<ConditionValue> DeviceHealthReconciler::Conditions(
    const PolicyDecision& decision, const ScopeView& scope, const Resolved& resolved,
    const api::DeviceTaintRule* ours) const {
  std::vector<ConditionValue> out;
  if (policy_.options().dry_run) {
    out.push_back(
        {"Tainted", "False", policy_.options().dry_run_reason,
         "no DeviceTaintRule written; would be: " + decision.reason + ": " + decision.message});
  } else {
    // A rule that selects no published device taints nothing; an ambiguous
    // target taints only through a rule written before it became ambiguous.
    bool tainted = decision.keep_rule && decision.reason != kReasonDeviceNotFound &&
                   (decision.reason != kReasonDeviceAmbiguous || ours != nullptr);
    out.push_back({"Tainted", tainted ? "True" : "False", decision.reason, decision.message});
  }
  using Outcome = TargetResolution::Outcome;
  if (resolved.resolution.outcome == Outcome::kNotFound) {
    out.push_back({"DeviceFound", "False", "NotPublished",
                   "no published device has " + resolved.spec_target});
  } else if (resolved.resolution.outcome == Outcome::kAmbiguous) {
    out.push_back({"DeviceFound", "False", "Ambiguous",
                   std::to_string(resolved.resolution.matches) + " published devices have " +
                       resolved.spec_target + "; set spec.driver, or name pool and device"});
  } else if (scope.devices.empty()) {
    out.push_back({"DeviceFound", "False", "NotPublished",
                   "no ResourceSlice publishes the device (or any device of the pool)"});
  } else if (!scope.pool_complete) {
    out.push_back({"DeviceFound", "False", "PoolIncomplete",
                   "the device is published, but its pool misses slices"});
  } else {
    out.push_back(
        {"DeviceFound", "True", "Published",
         std::to_string(scope.devices.size()) + " device(s) published in a complete pool"});
  }
  // Said from the decision, not from the rule cache, which shows a rule just
  // written (or deleted) only later: a status that waited for it would be
  // written twice.
  bool in_force = decision.keep_rule && !policy_.options().dry_run;
  const api::DeviceTaintRule::Condition* eviction = nullptr;
  if (ours && in_force) {
    for (const auto& c : ours->conditions) {
      if (c.type == "EvictionInProgress") eviction = &c;
    }
  }
  if (eviction) {
    out.push_back({"EvictionInProgress", eviction->status,
                   eviction->reason.empty() ? "Reported" : eviction->reason, eviction->message});
  } else {
    out.push_back({"EvictionInProgress", "False", "NotReported",
                   in_force ? "the eviction controller has not reported on the rule yet"
                            : "no DeviceTaintRule in force"});
  }
  out.push_back(EnforcedCondition(decision));
  return out;
}

TargetResolver DeviceHealthReconciler::Resolver() const {
  return TargetResolver(DeviceLocator(*sources_.inventory, policy_.options().attribute_names));
}

ScopeView DeviceHealthReconciler::Scope(const api::DeviceHealth& target) const {
  if (target.driver.empty() || target.pool.empty()) return {};
  return DeviceScope::Resolve(*sources_.inventory, target);
}

kube::Status DeviceHealthReconciler::WriteStatus(const api::DeviceHealth& health,
                                                 const Resolved& resolved, const PolicyInput& input,
                                                 const PolicyDecision& decision,
                                                 const ScopeView& scope,
                                                 const api::DeviceTaintRule* ours, bool& written) {
  DesiredStatus desired;
  desired.observed_generation = health.generation;
  desired.observed_state = health.state_text;
  bool addressed = Addressed(health);
  desired.state_since_ms = addressed ? Millis(input.state_since) : 0;
  desired.resolved = resolved.text;
  bool dry_run = policy_.options().dry_run;
  if (decision.keep_rule && addressed) {
    if (!dry_run) desired.rule_name = TaintRuleBuilder::RuleName(health.meta.name);
    desired.effect = EffectText(decision.effect);
    desired.affected_pod_count = static_cast<int64_t>(scope.pods.size());
    for (const auto& pod : scope.pods) {
      if (desired.affected_pods.size() >= policy_.options().max_affected_pods) break;
      desired.affected_pods.push_back(pod.namespace_name + "/" + pod.name);
    }
  }
  desired.matched_devices = static_cast<int64_t>(scope.devices.size());
  desired.conditions = Conditions(decision, scope, resolved, ours);
  // "hold-off over: taint removed" and "no taint" say the same once the rule
  // is gone; rewriting the one for the other cost a status write per removal.
  const auto* tainted = health.FindCondition("Tainted");
  if (tainted && tainted->reason == kReasonHealthy &&
      desired.conditions[0].reason == kReasonHealthy) {
    desired.conditions[0].message = tainted->message;
  }
  auto status = HealthStatusBuilder::Render(desired, health, clock_->WallNow());
  if (status == HealthStatusBuilder::Current(health)) return kube::Status::Ok();
  kube::Status patched = writer_->PatchStatus(health.meta.name, status);
  if (patched.code() == kube::StatusCode::kNotFound) {
    // Deleted while it was reconciled: its delete event brings the removal.
    spdlog::debug("DeviceHealth {} was deleted before its status was written", health.meta.name);
    return kube::Status::Ok();
  }
  KUBE_RETURN_IF_ERROR(patched);
  written = true;
  return kube::Status::Ok();
}

void DeviceHealthReconciler::RecordEvents(const api::DeviceHealth& health, const PolicyInput& input,
                                          const PolicyDecision& decision, const ScopeView& scope) {
  const auto* tainted = health.FindCondition("Tainted");
  std::string effect = decision.keep_rule ? EffectText(decision.effect) : "";
  bool dry_run = policy_.options().dry_run;
  bool changed = !tainted || health.status.effect != effect ||
                 (tainted->reason != decision.reason &&
                  !(dry_run && tainted->reason == policy_.options().dry_run_reason));
  if (!changed) return;
  bool warn = decision.effect == TaintEffect::kNoExecute || decision.reason == kReasonStormGuard ||
              decision.override_refused;
  std::string message = Target(health) + ": " + decision.message;
  if (dry_run) message = policy_.options().dry_run_message + ": " + message;
  events_(RefOf(health), warn ? kube::kEventTypeWarning : kube::kEventTypeNormal,
          decision.keep_rule ? "Taint" + decision.reason : "TaintRemoved", message);
  bool newly_no_execute = decision.keep_rule && decision.effect == TaintEffect::kNoExecute &&
                          input.in_force != TaintEffect::kNoExecute;
  if (!newly_no_execute || dry_run) return;
  // Only the Pods kube-controller-manager will evict: a claim that tolerates
  // the taint with effect NoExecute keeps its Pod.
  api::DeviceTaint taint{kTaintKey, TaintRuleBuilder::TaintValue(health), TaintEffect::kNoExecute,
                         "", 0};
  for (const auto& pod : EvictionTolerance::Evicted(*sources_.inventory, scope, taint)) {
    events_({"v1", "Pod", pod.namespace_name, pod.name, pod.uid, ""}, kube::kEventTypeWarning,
            "DeviceTaintedNoExecute",
            "device " + Target(health) + " is tainted NoExecute by DeviceHealth " +
                health.meta.name + " (" + TaintRuleBuilder::TaintValue(health) +
                "): kube-controller-manager evicts the Pod unless its claim tolerates " +
                kTaintKey +
                " with effect NoExecute (a toleration without an effect does not stop " +
                "the eviction)");
  }
}

void DeviceHealthReconciler::RecordMetrics(const api::DeviceHealth& health,
                                           const PolicyInput& input, const PolicyDecision& decision,
                                           const ScopeView& scope, Write wrote) {
  // Counted per write made; in dry-run per transition that would have been written.
  bool dry_run = policy_.options().dry_run;
  bool applied = dry_run ? decision.keep_rule && input.in_force != decision.effect
                         : wrote == Write::kNewEffect;
  bool removed =
      dry_run ? !decision.keep_rule && input.in_force.has_value() : wrote == Write::kDeleted;
  if (applied) metrics_->Applied(EffectText(decision.effect));
  if (removed) metrics_->Removed(EffectText(input.in_force.value_or(TaintEffect::kNone)));
  int devices = static_cast<int>(scope.devices.size());
  metrics_->Record(health.meta.name,
                   {health.state_text, decision.keep_rule ? EffectText(decision.effect) : "",
                    TaintRuleBuilder::TaintValue(health), devices,
                    decision.reason == kReasonStormGuard ? devices : 0});
  std::lock_guard lock(mu_);
  auto it = changed_at_.find(health.meta.name);
  if (it == changed_at_.end()) return;
  if (wrote != Write::kNothing) {
    metrics_->WriteLatency(std::chrono::duration<double>(clock_->Now() - it->second).count());
  }
  changed_at_.erase(it);
}

}  // namespace dra::health
