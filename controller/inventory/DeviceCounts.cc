#include "controller/inventory/DeviceCounts.h"

#include "controller/inventory/DeviceState.h"
#include "controller/inventory/Tolerations.h"

namespace dra::inventory {

void DeviceCounts::Add(const DeviceInfo& device,
                       std::span<const api::DeviceToleration> tolerations) {
  DeviceState state = DeviceState::Of(device);
  ++total;
  allocated += state.allocated() ? 1 : 0;
  no_schedule += HasEffect(device.taints, api::TaintEffect::kNoSchedule) ? 1 : 0;
  no_execute += HasEffect(device.taints, api::TaintEffect::kNoExecute) ? 1 : 0;
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
