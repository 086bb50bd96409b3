#pragma once

#include <array>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "controller/inventory/Inventory.h"

namespace dra::metrics {

// Devices by what keeps them from the scheduler (inventory::DeviceBlocker),
// indexed by the blocker; [kNone] counts the allocatable ones.
using BlockerCounts = std::array<int, inventory::DeviceState::kBlockers>;

// The blockers but kNone, sorted by their `reason` label.
const std::vector<inventory::DeviceBlocker>& SortedReasons();

// Per-class device totals, the stand-in for node.status.capacity/allocatable.
struct ClassTotals {
  int published = 0;
  int allocatable = 0;  // the scheduler could give them now (DeviceState::free)
  int allocated = 0;
  BlockerCounts blockers{};
};

// dra_controller_devices_{published,allocatable,allocated,unavailable,
// tainted,unhealthy} per driver, pool, node and device_class, fed device by
// device during the scrape's one pass over the inventory, each device's
// counts from its inventory::DeviceState. A device counts once for every
// class it matches, and under device_class="" when it matches none. Every
// (driver, pool, node, device_class) that has a device has every family but
// unavailable (zeros included; tainted for both blocking effects and both
// sources, the driver's slice and DeviceTaintRules);
// unavailable has a series per reason that applies (published = allocatable
// + the sum of unavailable). node is "" for devices every node reaches or
// that sit behind a node selector (which may pick several nodes; a device is
// counted once).
class DeviceCollector {
 public:
  // `unhealthy`: device keys "<driver>/<pool>/<device>".
  explicit DeviceCollector(const std::vector<std::string>& unhealthy);

  void Add(const inventory::DeviceVisit& device);
  // Appends the six families as text exposition.
  void Render(std::string& out) const;
  // Totals per DeviceClass over all nodes.
  std::map<std::string, ClassTotals> TotalsByClass() const;

 private:
  struct Group {
    std::vector<std::string> labels;  // driver, pool, node, device_class
    int published = 0;
    int allocatable = 0;
    int allocated = 0;
    BlockerCounts blockers{};
    // Devices with a taint of that effect, by source: [0] the driver's
    // slice, [1] DeviceTaintRules (a device may count under both).
    std::array<int, 2> no_schedule{};
    std::array<int, 2> no_execute{};
    int unhealthy = 0;
  };

  void Tally(Group& group, const inventory::DeviceVisit& device, bool unhealthy, bool unusable);

  std::unordered_set<std::string> unhealthy_;
  std::unordered_map<std::string, Group> groups_;
  std::string key_;  // scratch
};

}  // namespace dra::metrics
