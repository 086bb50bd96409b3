#pragma once

#include <span>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "controller/api/DeviceToleration.h"

namespace dra::inventory {

// The taints of `taints` that keep a device from being allocated to a request
// with `tolerations`: NoSchedule and NoExecute taints no toleration matches.
// None and unknown effects never block, as the API requires.
std::vector<api::DeviceTaint> UntoleratedTaints(const std::vector<api::DeviceTaint>& taints,
                                                std::span<const api::DeviceToleration> tolerations);

// Whether one of `taints` has `effect` (unknown effects read as None).
bool HasEffect(std::span<const api::DeviceTaint> taints, api::TaintEffect effect);

}  // namespace dra::inventory
