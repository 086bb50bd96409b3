#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dra::health {

// One DeviceHealth that asks for NoExecute now.
struct StormCandidate {
  std::string key;  // the DeviceHealth's name
  std::string driver;
  std::string pool;
  // Names of the devices it taints in its pool (a whole pool: all of them).
  // A device two candidates both name counts once.
  std::vector<std::string> devices;
  bool under_no_execute = false;  // its rule already has NoExecute
  int64_t since = 0;              // when it went bad (seconds since the epoch)
};

// Device counts the shares are taken of.
struct FleetSize {
  std::map<std::string, int> by_pool;    // "<driver>/<pool>" -> devices
  std::map<std::string, int> by_driver;  // driver -> devices
};

// Keeps NoExecute from emptying a pool or a driver's fleet at once: at most
// Allowed(share, n) distinct devices of a pool, and of a driver cluster-wide,
// are admitted (a whole-pool DeviceHealth and one for a device of that pool
// overlap: the device is counted once). Objects already under NoExecute are admitted first (a
// running eviction is never undone), then the oldest, then by name; the rest wait under NoSchedule
// and are promoted, oldest first, when room frees up.
class StormGuard {
 public:
  explicit StormGuard(double share) : share_(share) {}

  // floor(share * total), but at least 1 when share > 0 and total > 0.
  static int Allowed(double share, int total);

  std::set<std::string> Admit(std::vector<StormCandidate> candidates, const FleetSize& fleet) const;

 private:
  double share_;
};

}  // namespace dra::health
