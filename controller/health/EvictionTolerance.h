#pragma once

#include <span>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "controller/health/DeviceScope.h"
#include "controller/inventory/Inventory.h"

namespace dra::health {

// Which Pods kube-controller-manager's device-taint eviction controller
// (v1.37.2, claimEvictionTime) evicts for a NoExecute `taint` on the devices
// of `scope`. It counts only a toleration whose effect is NoExecute and that
// matches the taint: one without an effect lets the scheduler allocate the
// device but does not stop the eviction. Such a toleration without
// tolerationSeconds keeps the Pod for good; with it, the Pod is evicted that
// many seconds after the taint was added, so it is among the evicted here.
class EvictionTolerance {
 public:
  // The Pods of `scope.pods` whose claim holds a device of the scope through
  // an allocation result that does not tolerate `taint` for good.
  static std::vector<inventory::PodUse> Evicted(const inventory::Inventory& inventory,
                                                const ScopeView& scope,
                                                const api::DeviceTaint& taint);
  // Whether the eviction controller leaves a device allocated with these
  // tolerations alone under `taint` for good.
  static bool ToleratesForGood(std::span<const api::DeviceToleration> tolerations,
                               const api::DeviceTaint& taint);
};

}  // namespace dra::health
