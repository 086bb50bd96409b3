#include "controller/inventory/Tolerations.h"

#include <algorithm>

namespace dra::inventory {

std::vector<api::DeviceTaint> UntoleratedTaints(
    const std::vector<api::DeviceTaint>& taints,
    std::span<const api::DeviceToleration> tolerations) {
  std::vector<api::DeviceTaint> blocking;
  for (const auto& taint : taints) {
    if (taint.EffectiveEffect() == api::TaintEffect::kNone) continue;
    bool tolerated =
        std::any_of(tolerations.begin(), tolerations.end(),
                    [&](const api::DeviceToleration& t) { return t.Tolerates(taint); });
    if (!tolerated) blocking.push_back(taint);
  }
  return blocking;
}

bool HasEffect(std::span<const api::DeviceTaint> taints, api::TaintEffect effect) {
  return std::any_of(taints.begin(), taints.end(),
                     [&](const api::DeviceTaint& t) { return t.EffectiveEffect() == effect; });
}

}  // namespace dra::inventory
