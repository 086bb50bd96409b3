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
  std::map<std::string, std::set<std::string>> pool_used;    // pool -> device names
  std::map<std::string, std::set<std::string>> driver_used;  // driver -> pool/device
  std::set<std::string> admitted;
  auto size_of = [](const std::map<std::string, int>& sizes, const std::string& id) {
    auto it = sizes.find(id);
    return it == sizes.end() ? 0 : it->second;
  };
  for (const auto& c : candidates) {
    std::string pool_id = c.driver + "/" + c.pool;
    std::set<std::string> pool_after = pool_used[pool_id];
    std::set<std::string> driver_after = driver_used[c.driver];
    for (const auto& device : c.devices) {
      pool_after.insert(device);
      driver_after.insert(c.pool + "/" + device);
    }
    int pool_cap = Allowed(share_, size_of(fleet.by_pool, pool_id));
    int driver_cap = Allowed(share_, size_of(fleet.by_driver, c.driver));
    if (static_cast<int>(pool_after.size()) > pool_cap) continue;
    if (static_cast<int>(driver_after.size()) > driver_cap) continue;
    pool_used[pool_id] = std::move(pool_after);
    driver_used[c.driver] = std::move(driver_after);
    admitted.insert(c.key);
  }
  return admitted;
}

}  // namespace dra::health
