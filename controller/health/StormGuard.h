#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dra::health {

// One DeviceHealth whose devices count against the share: it asks for
// NoExecute now, or its rule holds NoExecute (a hold-off, or Unknown after
// Unhealthy) without asking for it.
struct StormCandidate {
  std::string key;  // the DeviceHealth's name
  std::string driver;
  std::string pool;
  // Names of the devices it taints in its pool (a whole pool: all of them).
  // A device two candidates both name counts once.
  std::vector<std::string> devices;
  bool under_no_execute = false;  // its rule already has NoExecute
  int64_t since_ms = 0;           // when it went bad (milliseconds since the epoch)
  bool wants_no_execute = true;   // false: only holds NoExecute (hold-off, Unknown)
};

// Device counts the shares are taken of.
struct FleetSize {
  std::map<std::string, int> by_pool;    // "<driver>/<pool>" -> devices
  std::map<std::string, int> by_driver;  // driver -> devices
};

// Why a candidate waits: the first cap it would break, with the figures.
struct StormVerdict {
  bool admitted = false;
  std::string scope{};  // "pool" or "driver"
  std::string id{};     // "<driver>/<pool>" or the driver
  int in_force = 0;     // devices of the scope under NoExecute (or admitted) already
  int total = 0;        // devices of the scope
  int cap = 0;
  int wanted = 0;  // devices this candidate would add
  // The candidate alone covers more devices than the cap: it can never be
  // admitted at this share.
  bool never_fits = false;

  std::string Message(double share) const;
};

// Keeps NoExecute from emptying a pool or a driver's fleet at once: at most
// Allowed(share, n) distinct devices of a pool, and of a driver cluster-wide,
// are under NoExecute (a whole-pool DeviceHealth and one for a device of that
// pool overlap: the device is counted once). Every device already under
// NoExecute counts, whatever its state (a hold-off, Unknown after Unhealthy),
// and stays: a running eviction is never undone. The rest are admitted oldest
// first, then by name, while room is left; they wait under NoSchedule and are
// promoted when room frees up.
class StormGuard {
 public:
  explicit StormGuard(double share) : share_(share) {}

  // floor(share * total), but at least 1 when share > 0 and total > 0.
  static int Allowed(double share, int total);

  // A verdict for every candidate that asks for NoExecute.
  std::map<std::string, StormVerdict> Decide(std::vector<StormCandidate> candidates,
                                             const FleetSize& fleet) const;
  // The verdict for `candidate` were nothing else under NoExecute: when it
  // does not fit even then (never_fits), no NoExecute will ever follow.
  StormVerdict Alone(const StormCandidate& candidate, const FleetSize& fleet) const;
  // The keys Decide() admits.
  std::set<std::string> Admit(std::vector<StormCandidate> candidates, const FleetSize& fleet) const;

  double share() const { return share_; }

 private:
  double share_;
};

}  // namespace dra::health
