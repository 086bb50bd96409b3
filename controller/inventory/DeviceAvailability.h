#pragma once

#include <span>

#include "controller/api/ResourceClaim.h"
#include "controller/inventory/AllocationState.h"
#include "controller/inventory/CounterLedger.h"
#include "controller/inventory/DeviceInfo.h"
#include "controller/inventory/DeviceState.h"
#include "controller/inventory/DeviceTable.h"
#include "controller/inventory/PoolTracker.h"

namespace dra::inventory {

// Whether the v1.37.2 allocator could give a device to a request
// (structured/internal/*/allocator_*.go, allocateOne and allocateDevice):
// not from an incomplete or invalid pool; not a device allocated whole
// unless the request has adminAccess; for an allowMultipleAllocations device,
// the request's consumption must fit in what the shares left
// (consumable_capacity.go, CmpRequestOverCapacity); and the device's counters
// must still be available (checkAvailableCounters), except for a further
// share of a device already shared. A short-lived view over the Inventory's
// state.
class DeviceAvailability {
 public:
  DeviceAvailability(const PoolTracker& pools, const AllocationState& allocations,
                     const CounterLedger& counters)
      : pools_(pools), allocations_(allocations), counters_(counters) {}

  // Fills the pool, allocation, counter and capacity fields of `info`
  // (`available` for a request that asks nothing special).
  void Describe(const DeviceTable::Entry& entry, DeviceInfo& info) const;
  // What the device's DeviceState follows from, for a request that asks
  // nothing special; `tainted`: one of the device's taints (slice or
  // DeviceTaintRule) is NoSchedule or NoExecute.
  DeviceFacts Facts(const DeviceTable::Entry& entry, bool tainted) const;
  // Whether `request` could be given the device (its selectors and taints aside).
  bool AvailableFor(const DeviceTable::Entry& entry,
                    const api::ResourceClaim::ExactRequest* request) const;
  // Whether the allocator gets as far as the device's selectors: a
  // complete, valid pool and not allocated whole.
  bool Evaluated(const DeviceTable::Entry& entry) const;

 private:
  const PoolStatus* PoolOf(const DeviceTable::Entry& entry) const;
  bool CapacityFits(const DeviceTable::Entry& entry, DeviceKeyView key,
                    const api::ResourceClaim::ExactRequest* request) const;

  const PoolTracker& pools_;
  const AllocationState& allocations_;
  const CounterLedger& counters_;
};

}  // namespace dra::inventory
