#include "controller/health/StormGuard.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace dra::health {

int StormGuard::Allowed(double share, int total) {
  if (share <= 0 || total <= 0) return 0;
  int allowed = static_cast<int>(std::floor(std::min(share, 1.0) * total + 1e-9));
  return std::max(allowed, 1);
}

std::set<std::string> StormGuard::Admit(std::vector<StormCandidate> candidates,
                                        const FleetSize& fleet) const {
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return std::tuple(!a.under_no_execute, a.since, a.key) <
           std::tuple(!b.under_no_execute, b.since, b.key);
  });
  std::map<std::string, int> pool_used;
  std::map<std::string, int> driver_used;
  std::set<std::string> admitted;
  auto size_of = [](const std::map<std::string, int>& sizes, const std::string& id) {
    auto it = sizes.find(id);
    return it == sizes.end() ? 0 : it->second;
  };
  for (const auto& c : candidates) {
    std::string pool_id = c.driver + "/" + c.pool;
    int pool_cap = Allowed(share_, size_of(fleet.by_pool, pool_id));
    int driver_cap = Allowed(share_, size_of(fleet.by_driver, c.driver));
    if (pool_used[pool_id] + c.devices > pool_cap) continue;
    if (driver_used[c.driver] + c.devices > driver_cap) continue;
    pool_used[pool_id] += c.devices;
    driver_used[c.driver] += c.devices;
    admitted.insert(c.key);
  }
  return admitted;
}

}  // namespace dra::health
