#include "controller/health/RuleFirstWriter.h"

#include <spdlog/spdlog.h>

#include "controller/health/RestHealthWriter.h"
#include "controller/health/TaintRuleBuilder.h"
#include "controller/health/TargetResolver.h"

namespace dra::health {
namespace {

using api::HealthState;
using api::TaintEffect;

bool Closes(HealthState state) {
  return state == HealthState::kDegraded || state == HealthState::kUnhealthy;
}

bool AtLeastNoSchedule(TaintEffect effect) {
  return effect == TaintEffect::kNoSchedule || effect == TaintEffect::kNoExecute;
}

// The DeviceHealth the source is about to write, as far as a rule needs it.
api::DeviceHealth Spec(const SourcedHealth& h) {
  api::DeviceHealth spec;
  spec.meta.name = h.name;
  spec.driver = h.driver;
  spec.pool = h.pool;
  spec.device = h.device;
  spec.uuid = h.uuid;
  spec.node = h.node;
  spec.index = h.index;
  spec.state = h.state;
  spec.state_text = std::string(api::HealthStateName(h.state));
  spec.reason = h.reason;
  return spec;
}

}  // namespace

std::shared_ptr<SourcedHealthWriter> RuleFirstWriter::ForSources(
    feature::FeatureContext& context, std::shared_ptr<SourcedHealthWriter> inner,
    const DeviceAttributeNames& names) {
  auto* rules = context.informers.rules();
  if (!context.health_writes_rules || rules == nullptr) return inner;
  Inputs inputs;
  inputs.inner = std::move(inner);
  inputs.rules = std::make_shared<RestHealthWriter>(
      context.manager.client(),
      context.informers.taint_rule_resource().value_or(api::DeviceTaintRule::kResource));
  inputs.healths = &context.manager.informers()
                        .Get<api::DeviceHealth>(
                            api::DeviceHealth::kResource,
                            [](simdjson::dom::element e) { return api::DeviceHealth::FromJson(e); })
                        .store();
  inputs.rule_cache = &rules->store();
  inputs.inventory = &context.inventory;
  inputs.attribute_names = names;
  return std::make_shared<RuleFirstWriter>(std::move(inputs));
}

kube::Result<SourcedWrite> RuleFirstWriter::Apply(const SourcedHealth& health) {
  bool wrote_ahead = false;
  if (Closes(health.state)) {
    auto closed = Close(health);
    // The DeviceHealth is still written: its reconcile closes the device.
    if (!closed.ok()) {
      spdlog::warn("DeviceHealth {}: closing rule not written ahead of it: {}", health.name,
                   closed.status().message());
    }
    wrote_ahead = closed.ok() && *closed;
  }
  auto written = inputs_.inner->Apply(health);
  bool stands = written.ok() && *written != SourcedWrite::kNotOurs;
  if (wrote_ahead && !stands) Withdraw(health.name);
  return written;
}

// A rule written ahead of a DeviceHealth that was not written has no owner
// for the garbage collector to delete it with: it goes at once, as the
// reconciler would delete it.
void RuleFirstWriter::Withdraw(const std::string& name) {
  std::string rule = TaintRuleBuilder::RuleName(name);
  kube::Status deleted = inputs_.rules->DeleteRule(rule, "");
  if (!deleted.ok()) {
    spdlog::warn("DeviceHealth {} not written: its closing rule {} not withdrawn: {}", name, rule,
                 deleted.message());
  }
}

kube::Result<bool> RuleFirstWriter::Close(const SourcedHealth& health) {
  if (inputs_.dry_run || inputs_.rule_cache == nullptr) return false;
  auto existing = inputs_.healths->Get(health.name);
  if (existing && existing->Label(kSourceLabel) != health.source) return false;
  auto rule = inputs_.rule_cache->Get(TaintRuleBuilder::RuleName(health.name));
  if (rule && !TaintRuleBuilder::Owns(*rule, health.name)) return false;
  if (rule && AtLeastNoSchedule(rule->taint.effect)) return false;
  api::DeviceHealth spec = Spec(health);
  TargetResolver resolver(DeviceLocator(*inputs_.inventory, inputs_.attribute_names));
  TargetResolution resolution = resolver.Resolve(spec);
  if (!resolution.resolved()) return false;
  api::DeviceHealth target = TargetResolver::Effective(spec, resolution, nullptr);
  // Sources name single devices; anything else waits for the reconciler.
  if (target.driver.empty() || target.pool.empty() || target.device.empty()) return false;
  if (existing) target.meta.uid = existing->meta.uid;
  KUBE_RETURN_IF_ERROR(
      inputs_.rules->ApplyRule(TaintRuleBuilder::Build(target, TaintEffect::kNoSchedule)));
  return !rule && !existing;  // a new rule that no DeviceHealth owns yet
}

}  // namespace dra::health
