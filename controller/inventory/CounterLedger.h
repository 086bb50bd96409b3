#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "controller/api/CounterSet.h"
#include "controller/api/Device.h"

namespace dra::inventory {

// What the counter sets of each partitionable pool have left after the
// devices allocated from it, and whether a device still fits: the v1.37.2
// allocator's available-counters check (structured/internal/*/allocator_*.go,
// checkAvailableCounters). Not thread-safe; the Inventory serializes access.
class CounterLedger {
 public:
  // `sets` minus what the `allocated` devices consume; a pool without
  // counter sets is forgotten.
  void Recompute(const std::string& pool_id, const std::vector<api::CounterSet>& sets,
                 const std::vector<const api::Device*>& allocated);
  void Forget(const std::string& pool_id) { remaining_.erase(pool_id); }

  // True when the device consumes no counters, or when every counter of the
  // pool still covers what the device would take of it (a counter already
  // overdrawn blocks every device that consumes counters, as upstream).
  bool Covers(const std::string& pool_id, const api::Device& device) const;
  // What is left; nullptr for a pool without counter sets.
  const std::vector<api::CounterSet>* Remaining(const std::string& pool_id) const;

 private:
  std::unordered_map<std::string, std::vector<api::CounterSet>> remaining_;
};

}  // namespace dra::inventory
