#include "controller/health/StormGuard.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace dra::health {
namespace {

int SizeOf(const std::map<std::string, int>& sizes, const std::string& id) {
  auto it = sizes.find(id);
  return it == sizes.end() ? 0 : it->second;
}

// The devices under NoExecute (or admitted to it), per pool and per driver.
class Room {
 public:
  Room(double share, const FleetSize& fleet) : share_(share), fleet_(fleet) {}

  void Take(const StormCandidate& c) {
    for (const auto& device : c.devices) {
      pools_[PoolId(c)].insert(device);
      drivers_[c.driver].insert(c.pool + "/" + device);
    }
  }

  // Admitted, or the first cap `c` would break.
  StormVerdict Check(const StormCandidate& c) const {
    auto pool_after = Lookup(pools_, PoolId(c));
    auto driver_after = Lookup(drivers_, c.driver);
    const size_t pool_before = pool_after.size(), driver_before = driver_after.size();
    for (const auto& device : c.devices) {
      pool_after.insert(device);
      driver_after.insert(c.pool + "/" + device);
    }
    StormVerdict v = Verdict("pool", PoolId(c), fleet_.by_pool, pool_before, pool_after.size(),
                             static_cast<int>(c.devices.size()));
    if (v.admitted) {
      v = Verdict("driver", c.driver, fleet_.by_driver, driver_before, driver_after.size(),
                  static_cast<int>(c.devices.size()));
    }
    return v;
  }

 private:
  static std::string PoolId(const StormCandidate& c) { return c.driver + "/" + c.pool; }

  static std::set<std::string> Lookup(const std::map<std::string, std::set<std::string>>& used,
                                      const std::string& id) {
    auto it = used.find(id);
    return it == used.end() ? std::set<std::string>{} : it->second;
  }

  StormVerdict Verdict(const std::string& scope, const std::string& id,
                       const std::map<std::string, int>& sizes, size_t before, size_t after,
                       int wanted) const {
    StormVerdict v;
    v.scope = scope;
    v.id = id;
    v.in_force = static_cast<int>(before);
    v.total = SizeOf(sizes, id);
    v.cap = StormGuard::Allowed(share_, v.total);
    v.wanted = wanted;
    v.admitted = static_cast<int>(after) <= v.cap;
    v.never_fits = wanted > v.cap;
    return v;
  }

  double share_;
  const FleetSize& fleet_;
  std::map<std::string, std::set<std::string>> pools_;    // pool -> device names
  std::map<std::string, std::set<std::string>> drivers_;  // driver -> pool/device
};

}  // namespace

int StormGuard::Allowed(double share, int total) {
  if (share <= 0 || total <= 0) return 0;
  int allowed = static_cast<int>(std::floor(std::min(share, 1.0) * total + 1e-9));
  return std::max(allowed, 1);
}

std::map<std::string, StormVerdict> StormGuard::Decide(std::vector<StormCandidate> candidates,
                                                       const FleetSize& fleet) const {
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return std::tuple(a.since_ms, a.key) < std::tuple(b.since_ms, b.key);
  });
  Room room(share_, fleet);
  std::map<std::string, StormVerdict> verdicts;
  // What is under NoExecute stays and counts, asked for or only held.
  for (const auto& c : candidates) {
    if (!c.under_no_execute) continue;
    if (c.wants_no_execute) {
      verdicts[c.key] = room.Check(c);
      verdicts[c.key].admitted = true;
    }
    room.Take(c);
  }
  for (const auto& c : candidates) {
    if (c.under_no_execute || !c.wants_no_execute) continue;
    StormVerdict verdict = room.Check(c);
    if (verdict.admitted) room.Take(c);
    verdicts[c.key] = verdict;
  }
  return verdicts;
}

StormVerdict StormGuard::Alone(const StormCandidate& candidate, const FleetSize& fleet) const {
  return Room(share_, fleet).Check(candidate);
}

std::set<std::string> StormGuard::Admit(std::vector<StormCandidate> candidates,
                                        const FleetSize& fleet) const {
  std::set<std::string> admitted;
  for (const auto& [key, verdict] : Decide(std::move(candidates), fleet)) {
    if (verdict.admitted) admitted.insert(key);
  }
  return admitted;
}

std::string StormVerdict::Message(double share) const {
  std::string percent = std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
  std::string cap_text =
      "cap " + std::to_string(cap) + " (" + percent + " of " + std::to_string(total) + " devices)";
  if (never_fits) {
    return "storm guard: covers " + std::to_string(wanted) + " devices, more than the cap of " +
           std::to_string(cap) + " of " + scope + " " + id + " (" + percent + " of " +
           std::to_string(total) +
           " devices): it stays NoSchedule unless --health-storm-guard-percent allows it or it "
           "is split";
  }
  return "storm guard: " + scope + " " + id + " has " + std::to_string(in_force) + " of " +
         std::to_string(total) + " devices under NoExecute, " + cap_text + "; this adds " +
         std::to_string(wanted) + ": NoSchedule until room frees up";
}

}  // namespace dra::health
