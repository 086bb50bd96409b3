#include "controller/inventory/DeviceCounts.h"

#include <algorithm>

#include "controller/inventory/DeviceState.h"
#include "controller/inventory/Tolerations.h"

namespace dra::inventory {
namespace {

void InsertSorted(std::vector<std::string>& names, std::string_view name) {
  auto at = std::lower_bound(names.begin(), names.end(), name);
  if (at == names.end() || *at != name) names.emplace(at, name);
}

void InsertAll(std::vector<std::string>& names, const std::vector<std::string>& more) {
  for (const auto& name : more) InsertSorted(names, name);
}

}  // namespace

void DeviceCounts::AddTaintSources(const DeviceInfo& device) {
  bool by_driver = false;
  bool by_rule = false;
  for (size_t i = 0; i < device.taints.size() && i < device.taint_sources.size(); ++i) {
    if (device.taints[i].EffectiveEffect() == api::TaintEffect::kNone) continue;
    const TaintSource& source = device.taint_sources[i];
    if (source.driver()) {
      by_driver = true;
      InsertSorted(driver_taint_keys, device.taints[i].key);
    } else {
      by_rule = true;
      InsertSorted(taint_rules, source.RuleName());
    }
  }
  driver_tainted += by_driver ? 1 : 0;
  rule_tainted += by_rule ? 1 : 0;
}

void DeviceCounts::Add(const DeviceInfo& device,
                       std::span<const api::DeviceToleration> tolerations) {
  DeviceState state = DeviceState::Of(device);
  ++total;
  allocated += state.allocated() ? 1 : 0;
  no_schedule += HasEffect(device.taints, api::TaintEffect::kNoSchedule) ? 1 : 0;
  no_execute += HasEffect(device.taints, api::TaintEffect::kNoExecute) ? 1 : 0;
  AddTaintSources(device);
  incomplete_pool += device.pool_complete ? 0 : 1;
  invalid_pool += device.pool_valid ? 0 : 1;
  counters_in_use += state.blocker() == DeviceBlocker::kCountersInUse ? 1 : 0;
  bool tolerated = state.blocker() == DeviceBlocker::kTainted &&
                   UntoleratedTaints(device.taints, tolerations).empty();
  free += state.free() || tolerated ? 1 : 0;
}

void DeviceCounts::Merge(const DeviceCounts& other) {
  total += other.total;
  allocated += other.allocated;
  free += other.free;
  no_schedule += other.no_schedule;
  no_execute += other.no_execute;
  driver_tainted += other.driver_tainted;
  rule_tainted += other.rule_tainted;
  InsertAll(driver_taint_keys, other.driver_taint_keys);
  InsertAll(taint_rules, other.taint_rules);
  incomplete_pool += other.incomplete_pool;
  invalid_pool += other.invalid_pool;
  counters_in_use += other.counters_in_use;
  if (other.selector_error && !selector_error) selector_error = other.selector_error;
  if (selector_error) free = 0;
}

void DeviceCounts::MarkUnusable(std::optional<ClassUnusable> unusable) {
  if (!unusable) return;
  free = 0;
  selector_error = std::move(unusable);
}

}  // namespace dra::inventory
