#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/ResourceSlice.h"
#include "src/cache/KeyedSet.h"

namespace dra::inventory {

// The state of one resource pool as the scheduler sees it: only slices of
// the newest generation count, and the pool is complete once all
// resourceSliceCount slices of that generation are published. A pool is
// invalid, and none of its devices allocatable, when a device name appears
// twice or its counter sets are inconsistent (pools_*.go, buildPool).
struct PoolStatus {
  std::string driver;
  std::string name;
  int64_t generation = 0;
  int64_t expected_slices = 0;  // resourceSliceCount of the newest generation
  int64_t current_slices = 0;   // slices published with the newest generation
  int64_t stale_slices = 0;     // slices of older generations, ignored
  // Why the allocator treats the pool as invalid; empty when it is valid.
  std::string invalid_reason;
  // The counter sets of the newest generation's sharedCounters slices.
  std::vector<api::CounterSet> counter_sets;

  bool complete() const { return current_slices >= expected_slices; }
  bool valid() const { return invalid_reason.empty(); }
  // "<driver>/<pool>"
  std::string Id() const { return driver + "/" + name; }
};

// Groups ResourceSlices into pools and tracks each pool's newest generation.
// Not thread-safe; the Inventory serializes access.
class PoolTracker {
 public:
  using SlicePtr = std::shared_ptr<const api::ResourceSlice>;

  static std::string PoolId(std::string_view driver, std::string_view pool);

  // Adds or replaces a slice (by name). Returns the ids of pools whose
  // current slices may have changed (two when a slice moved pools).
  std::vector<std::string> Apply(SlicePtr slice);
  std::vector<std::string> Remove(std::string_view slice_name);

  // Slices of the pool's newest generation, in name order.
  std::vector<SlicePtr> CurrentSlices(std::string_view pool_id) const;
  // nullptr if no slice names the pool.
  const PoolStatus* Find(std::string_view pool_id) const;
  std::vector<PoolStatus> Pools() const;

 private:
  struct Pool {
    PoolStatus status;
    std::vector<SlicePtr> slices;  // by name
  };

  void Recompute(const std::string& pool_id);
  // Counter sets and invalid_reason of `status` from its current slices.
  void Validate(const Pool& pool, PoolStatus& status) const;

  static void Insert(Pool& pool, SlicePtr slice);
  static void Erase(Pool& pool, std::string_view slice_name);

  kube::KeyedSet<api::ResourceSlice> slices_;  // by name, read from the slice itself
  std::map<std::string, Pool, std::less<>> pools_;
};

}  // namespace dra::inventory
