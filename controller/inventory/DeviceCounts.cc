#include "controller/inventory/DeviceCounts.h"

#include "controller/inventory/Tolerations.h"

namespace dra::inventory {

void DeviceCounts::Add(const DeviceInfo& device,
                       std::span<const api::DeviceToleration> tolerations) {
  ++total;
  bool allocated_now = !device.allocated_to.empty();
  allocated += allocated_now ? 1 : 0;
  no_schedule += HasEffect(device.taints, api::TaintEffect::kNoSchedule) ? 1 : 0;
  no_execute += HasEffect(device.taints, api::TaintEffect::kNoExecute) ? 1 : 0;
  incomplete_pool += device.pool_complete ? 0 : 1;
  invalid_pool += device.pool_valid ? 0 : 1;
  if (device.available && UntoleratedTaints(device.taints, tolerations).empty()) {
    ++free;
  }
}

void DeviceCounts::MarkUnusable(std::optional<ClassUnusable> unusable) {
  if (!unusable) return;
  free = 0;
  selector_error = std::move(unusable);
}

}  // namespace dra::inventory
