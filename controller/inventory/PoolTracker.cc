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
  const std::string name = slice->meta.name;
  std::string pool_id = PoolId(slice->driver, slice->pool.name);
  auto existing = slices_.find(name);
  if (existing != slices_.end()) {
    std::string old_id = PoolId(existing->second->driver, existing->second->pool.name);
    if (old_id != pool_id) {
      pools_[old_id].slice_names.erase(name);
      Recompute(old_id);
      changed.push_back(old_id);
    }
    existing->second = std::move(slice);
  } else {
    slices_.emplace(name, std::move(slice));
  }
  Pool& pool = pools_[pool_id];
  pool.slice_names.insert(name);
  Recompute(pool_id);
  changed.push_back(pool_id);
  return changed;
}

std::vector<std::string> PoolTracker::Remove(std::string_view slice_name) {
  auto it = slices_.find(slice_name);
  if (it == slices_.end()) return {};
  std::string pool_id = PoolId(it->second->driver, it->second->pool.name);
  pools_[pool_id].slice_names.erase(std::string(slice_name));
  slices_.erase(it);
  Recompute(pool_id);
  return {pool_id};
}

void PoolTracker::Recompute(const std::string& pool_id) {
  auto it = pools_.find(pool_id);
  if (it == pools_.end()) return;
  Pool& pool = it->second;
  if (pool.slice_names.empty()) {
    pools_.erase(it);
    return;
  }
  PoolStatus status;
  bool first = true;
  for (const auto& name : pool.slice_names) {
    const api::ResourceSlice& slice = *slices_.at(name);
    if (first) {
      status.driver = slice.driver;
      status.name = slice.pool.name;
      first = false;
    }
    status.generation = std::max(status.generation, slice.pool.generation);
  }
  for (const auto& name : pool.slice_names) {
    const api::ResourceSlice& slice = *slices_.at(name);
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
  for (const auto& name : pool.slice_names) {
    const api::ResourceSlice& slice = *slices_.at(name);
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
  for (const auto& name : pool.slice_names) {
    const api::ResourceSlice& slice = *slices_.at(name);
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
  for (const auto& name : it->second.slice_names) {
    const SlicePtr& slice = slices_.find(name)->second;
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
