#include "controller/health/HealthKeys.h"

#include "controller/health/DeviceScope.h"
#include "controller/inventory/DeviceKey.h"

namespace dra::health {

std::vector<std::string> HealthKeys::ForSlice(const kube::StoreReader<api::DeviceHealth>& healths,
                                              const api::ResourceSlice& slice) {
  std::vector<std::string> keys;
  for (const auto& h : healths.List()) {
    bool named = h->driver == slice.driver && h->pool == slice.pool.name;
    bool looked_up = !h->NamesPool() && (h->driver.empty() || h->driver == slice.driver);
    if (named || looked_up) keys.push_back(h->meta.name);
  }
  return keys;
}

std::vector<std::string> HealthKeys::ForClaim(const kube::StoreReader<api::DeviceHealth>& healths,
                                              const api::ResourceClaim& claim) {
  std::vector<std::string> keys;
  if (claim.results.empty()) return keys;
  for (const auto& h : healths.List()) {
    if (!h->status.effect.empty() && DeviceScope::NamesAnyOf(ResolvedTarget(*h), claim.results))
      keys.push_back(h->meta.name);
  }
  return keys;
}

api::DeviceHealth HealthKeys::ResolvedTarget(const api::DeviceHealth& health) {
  api::DeviceHealth target = health;
  if (health.NamesPool()) return target;
  auto key = inventory::DeviceKey::Parse(health.status.resolved);
  if (key.ok()) {
    target.driver = key->driver;
    target.pool = key->pool;
    target.device = key->device;
  }
  return target;
}

}  // namespace dra::health
