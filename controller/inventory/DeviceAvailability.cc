#include "controller/inventory/DeviceAvailability.h"

#include <algorithm>

#include "controller/inventory/Tolerations.h"

namespace dra::inventory {
namespace {

const kube::Quantity* Find(const AllocationState::Capacity& capacity, std::string_view name) {
  for (const auto& [n, q] : capacity)
    if (n == name) return &q;
  return nullptr;
}

}  // namespace

const PoolStatus* DeviceAvailability::PoolOf(const DeviceTable::Entry& entry) const {
  return pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
}

bool DeviceAvailability::Evaluated(const DeviceTable::Entry& entry) const {
  const PoolStatus* pool = PoolOf(entry);
  if (pool == nullptr || !pool->complete() || !pool->valid()) return false;
  return !allocations_.InUse(entry.KeyView());
}

// Every capacity of the device must take the request's consumption on top of
// what the shares consume; a request naming a capacity the device does not
// have does not fit.
bool DeviceAvailability::CapacityFits(const DeviceTable::Entry& entry, DeviceKeyView key,
                                      const api::ResourceClaim::ExactRequest* request) const {
  const api::Device& device = *entry.device;
  if (request != nullptr) {
    for (const auto& [name, quantity] : request->capacity_requests) {
      if (device.FindCapacity(name) == nullptr) return false;
    }
  }
  AllocationState::Capacity consumed = allocations_.Consumed(key);
  for (const auto& [name, value] : device.capacity) {
    std::optional<kube::Quantity> requested;
    if (request != nullptr) {
      for (const auto& [n, q] : request->capacity_requests)
        if (n == name) requested = q;
    }
    auto need = api::CapacityPolicy::Consumption(device.FindCapacityPolicy(name), value, requested);
    if (!need) return false;
    const kube::Quantity* used = Find(consumed, name);
    auto total = used != nullptr ? need->Add(*used) : kube::Result<kube::Quantity>(*need);
    if (!total.ok() || *total > value) return false;
  }
  return true;
}

bool DeviceAvailability::AvailableFor(const DeviceTable::Entry& entry,
                                      const api::ResourceClaim::ExactRequest* request) const {
  const PoolStatus* pool = PoolOf(entry);
  if (pool == nullptr || !pool->complete() || !pool->valid()) return false;
  DeviceKeyView key = entry.KeyView();
  bool admin = request != nullptr && request->admin_access;
  bool shared = entry.device->allow_multiple_allocations;
  if (!admin && (shared ? allocations_.InUse(key) : allocations_.Allocated(key))) return false;
  if (shared && !CapacityFits(entry, key, request)) return false;
  // A further share of a device already shared does not consume its counters again.
  if (shared && allocations_.Allocated(key)) return true;
  return counters_.Covers(pool->Id(), *entry.device);
}

DeviceFacts DeviceAvailability::Facts(const DeviceTable::Entry& entry, bool tainted) const {
  const PoolStatus* pool = PoolOf(entry);
  return {.pool_complete = pool != nullptr && pool->complete(),
          .pool_valid = pool == nullptr || pool->valid(),
          .allocated = allocations_.Allocated(entry.KeyView()),
          .available = AvailableFor(entry, nullptr),
          .counters_available = pool == nullptr || counters_.Covers(pool->Id(), *entry.device),
          .tainted = tainted};
}

void DeviceAvailability::Describe(const DeviceTable::Entry& entry, DeviceInfo& info) const {
  DeviceKeyView key = info.key.View();
  DeviceFacts facts = Facts(entry, HasEffect(info.taints, api::TaintEffect::kNoSchedule) ||
                                       HasEffect(info.taints, api::TaintEffect::kNoExecute));
  info.pool_complete = facts.pool_complete;
  info.pool_valid = facts.pool_valid;
  info.allow_multiple_allocations = entry.device->allow_multiple_allocations;
  if (const auto* held = allocations_.Holders(key))
    info.allocated_to = AllocationState::ClaimKeys(*held);
  if (const auto* admin = allocations_.AdminAccessClaims(key)) {
    info.admin_access_claims = AllocationState::ClaimKeys(*admin);
  }
  info.counters_available = facts.counters_available;
  if (info.allow_multiple_allocations) {
    AllocationState::Capacity consumed = allocations_.Consumed(key);
    for (const auto& [name, value] : entry.device->capacity) {
      const kube::Quantity* used = Find(consumed, name);
      auto left = used != nullptr ? value.Sub(*used) : kube::Result<kube::Quantity>(value);
      info.remaining_capacity.emplace_back(name, left.ok() ? *left : kube::Quantity());
    }
  }
  info.available = facts.available;
}

}  // namespace dra::inventory
