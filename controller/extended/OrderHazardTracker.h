#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingFinding.h"

namespace dra::extended {

// The v1.37.2 kube-scheduler's extended-resource cache is event-order
// dependent: when any class naming a contested name is deleted, or stops
// naming it (the winner or a loser: the cache deletes the name's entry
// whichever class it points to), the cache drops the name although another
// class still names it, and only an update of the class that serves it (or a
// scheduler restart) brings it back. This tracker remembers the classes of
// every contested name between observations and reports the serving class
// until it has been updated (its resourceVersion changed) since the other
// left. Not thread-safe.
class OrderHazardTracker {
 public:
  // Feeds the current classes; returns the hazards open after them, sorted by class.
  std::vector<MappingFinding> Observe(
      const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
      const ExtendedResourceMapping& mapping);

  static std::string Message(const std::string& resource, const std::string& departed,
                             const std::string& survivor);

 private:
  struct Hazard {
    std::string departed;          // the claimant that left
    std::string survivor_version;  // survivor's resourceVersion when it left
  };

  // resource -> its classes (winner first), last observation
  std::map<std::string, std::vector<std::string>> contested_;
  std::map<std::string, Hazard> hazards_;  // resource -> open hazard
};

}  // namespace dra::extended
