#include "controller/inventory/PoolTracker.h"

#include <algorithm>

namespace dra::inventory {

std::string PoolTracker::PoolId(std::string_view driver, std::string_view pool) {
  std::string id(driver);
  id.append("/").append(pool);
  return id;
}

std::vector<std::string> PoolTracker::Apply(SlicePtr slice) {
  std::vector<std::string> changed;
  std::string pool_id = PoolId(slice->driver, slice->pool.name);
  if (SlicePtr old = slices_.Put(slice)) {
    std::string old_id = PoolId(old->driver, old->pool.name);
    Erase(pools_[old_id], old->meta.name);
    if (old_id != pool_id) {
      Recompute(old_id);
      changed.push_back(old_id);
    }
  }
  Insert(pools_[pool_id], std::move(slice));
  Recompute(pool_id);
  changed.push_back(pool_id);
  return changed;
}

std::vector<std::string> PoolTracker::Remove(std::string_view slice_name) {
  SlicePtr removed = slices_.Erase(slice_name);
  if (removed == nullptr) return {};
  std::string pool_id = PoolId(removed->driver, removed->pool.name);
  Erase(pools_[pool_id], slice_name);
  Recompute(pool_id);
  return {pool_id};
}

namespace {

bool NameBefore(const PoolTracker::SlicePtr& slice, std::string_view name) {
  return slice->meta.name < name;
}

}  // namespace

void PoolTracker::Insert(Pool& pool, SlicePtr slice) {
  auto at = std::lower_bound(pool.slices.begin(), pool.slices.end(), slice->meta.name, NameBefore);
  pool.slices.insert(at, std::move(slice));
}

void PoolTracker::Erase(Pool& pool, std::string_view slice_name) {
  auto at = std::lower_bound(pool.slices.begin(), pool.slices.end(), slice_name, NameBefore);
  if (at != pool.slices.end() && (*at)->meta.name == slice_name) pool.slices.erase(at);
}

void PoolTracker::Recompute(const std::string& pool_id) {
  auto it = pools_.find(pool_id);
  if (it == pools_.end()) return;
  Pool& pool = it->second;
  if (pool.slices.empty()) {
    pools_.erase(it);
    return;
  }
  PoolStatus status;
  bool first = true;
  for (const auto& slice_ptr : pool.slices) {
    const api::ResourceSlice& slice = *slice_ptr;
    if (first) {
      status.driver = slice.driver;
      status.name = slice.pool.name;
      first = false;
    }
    status.generation = std::max(status.generation, slice.pool.generation);
  }
  for (const auto& slice_ptr : pool.slices) {
    const api::ResourceSlice& slice = *slice_ptr;
    if (slice.pool.generation == status.generation) {
      ++status.current_slices;
      status.expected_slices = std::max(status.expected_slices, slice.pool.resource_slice_count);
    } else {
      ++status.stale_slices;
    }
  }
  Validate(pool, status);
  pool.status = std::move(status);
}

// The checks of the v1.37.2 allocator's pool gathering (structured/internal/
// */pools_*.go, buildPool: validateDeviceNames, getAndValidateCounterSets,
// validateDeviceCounterConsumption), over every current slice of the pool.
void PoolTracker::Validate(const Pool& pool, PoolStatus& status) const {
  std::set<std::string_view> names;
  std::string& reason = status.invalid_reason;
  auto current = [&](const api::ResourceSlice& slice) {
    return slice.pool.generation == status.generation;
  };
  for (const auto& slice_ptr : pool.slices) {
    const api::ResourceSlice& slice = *slice_ptr;
    if (!current(slice)) continue;
    for (const auto& set : slice.shared_counters) {
      bool duplicate = std::any_of(status.counter_sets.begin(), status.counter_sets.end(),
                                   [&](const api::CounterSet& s) { return s.name == set.name; });
      if (duplicate && reason.empty()) reason = "counter set " + set.name + " is defined twice";
      if (!duplicate) status.counter_sets.push_back(set);
    }
    if (!slice.shared_counters.empty()) continue;  // its devices are ignored
    for (const auto& device : slice.devices) {
      if (!names.insert(device.name).second && reason.empty()) {
        reason = "device name " + device.name.str() + " appears twice";
      }
    }
  }
  for (const auto& slice_ptr : pool.slices) {
    const api::ResourceSlice& slice = *slice_ptr;
    if (!reason.empty()) return;
    if (!current(slice) || !slice.shared_counters.empty()) continue;
    for (const auto& device : slice.devices) {
      for (const auto& consumed : device.consumes_counters) {
        auto set = std::find_if(status.counter_sets.begin(), status.counter_sets.end(),
                                [&](const api::CounterSet& s) { return s.name == consumed.name; });
        if (set == status.counter_sets.end()) {
          reason = "device " + device.name.str() + " consumes unknown counter set " + consumed.name;
          return;
        }
        for (const auto& [counter, value] : consumed.counters) {
          if (set->Find(counter) != nullptr) continue;
          reason = "device " + device.name.str() + " consumes counter " + counter +
                   ", which counter set " + consumed.name + " does not define";
          return;
        }
      }
    }
  }
}

std::vector<PoolTracker::SlicePtr> PoolTracker::CurrentSlices(std::string_view pool_id) const {
  std::vector<SlicePtr> current;
  auto it = pools_.find(pool_id);
  if (it == pools_.end()) return current;
  for (const SlicePtr& slice : it->second.slices) {
    if (slice->pool.generation == it->second.status.generation) current.push_back(slice);
  }
  return current;
}

const PoolStatus* PoolTracker::Find(std::string_view pool_id) const {
  auto it = pools_.find(pool_id);
  return it == pools_.end() ? nullptr : &it->second.status;
}

std::vector<PoolStatus> PoolTracker::Pools() const {
  std::vector<PoolStatus> out;
  out.reserve(pools_.size());
  for (const auto& [id, pool] : pools_) out.push_back(pool.status);
  return out;
}

}  // namespace dra::inventory
