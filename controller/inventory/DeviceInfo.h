#pragma once

#include <string>
#include <utility>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/TaintSource.h"
#include "src/api/Quantity.h"

namespace dra::inventory {

// One device as the Inventory's queries describe it.
struct DeviceInfo {
  DeviceKey key;
  std::string slice_name;
  std::string node_name;  // empty unless the device is local to one node
  bool all_nodes = false;
  bool node_selector = false;  // reachable from the nodes a slice selector picks
  bool pool_complete = true;
  bool pool_valid = true;  // see PoolStatus::invalid_reason
  bool allow_multiple_allocations = false;
  // The counters it consumes are still available in its pool (true when it
  // consumes none).
  bool counters_available = true;
  // The allocator could give it to a request now, taints and selectors aside:
  // complete and valid pool, not allocated (an allowMultipleAllocations
  // device: capacity left for one more default share), counters available.
  bool available = true;
  std::vector<api::DeviceTaint> taints;  // the slice's, then DeviceTaintRules'
  // Where each of `taints` comes from: same length, same order.
  std::vector<TaintSource> taint_sources;
  std::vector<std::string> allocated_to;  // claims, "<namespace>/<name>" (whole or a share)
  // Claims naming it with adminAccess: they do not allocate it.
  std::vector<std::string> admin_access_claims;
  // allowMultipleAllocations devices: each capacity minus what the shares
  // consume (consumedCapacity); empty for other devices.
  std::vector<std::pair<std::string, kube::Quantity>> remaining_capacity;
};

}  // namespace dra::inventory
