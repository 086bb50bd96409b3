#include "controller/health/EvictionTolerance.h"

#include <set>
#include <string>

namespace dra::health {
namespace {

std::string ClaimKey(std::string_view ns, std::string_view name) {
  return std::string(ns) + "/" + std::string(name);
}

bool InScope(const ScopeView& scope, const api::ResourceClaim::AllocationResult& result) {
  for (const auto& d : scope.devices) {
    if (result.driver == d.key.driver && result.pool == d.key.pool &&
        result.device == d.key.device) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool EvictionTolerance::ToleratesForGood(std::span<const api::DeviceToleration> tolerations,
                                         const api::DeviceTaint& taint) {
  for (const auto& t : tolerations) {
    bool counted = t.effect == api::TaintEffect::kNoExecute && t.Tolerates(taint);
    if (counted && !t.toleration_seconds.has_value()) return true;
  }
  return false;
}

std::vector<inventory::PodUse> EvictionTolerance::Evicted(const inventory::Inventory& inventory,
                                                          const ScopeView& scope,
                                                          const api::DeviceTaint& taint) {
  std::set<std::string> wanted;
  for (const auto& pod : scope.pods) wanted.insert(ClaimKey(pod.namespace_name, pod.claim_name));
  std::set<std::string> tolerant;  // claims whose every result in scope tolerates for good
  inventory.VisitClaims([&](const api::ResourceClaim& claim) {
    std::string key = ClaimKey(claim.meta.namespace_name, claim.meta.name);
    if (!wanted.contains(key)) return;
    bool all = true;
    for (const auto& r : claim.results) {
      if (r.admin_access || !InScope(scope, r)) continue;
      all = all && ToleratesForGood({r.tolerations.begin(), r.tolerations.end()}, taint);
    }
    if (all) tolerant.insert(key);
  });
  std::vector<inventory::PodUse> evicted;
  for (const auto& pod : scope.pods) {
    if (!tolerant.contains(ClaimKey(pod.namespace_name, pod.claim_name))) evicted.push_back(pod);
  }
  return evicted;
}

}  // namespace dra::health
