#pragma once

#include <string>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "controller/inventory/DeviceKey.h"

namespace dra::inventory {

// One device as the Inventory's queries describe it.
struct DeviceInfo {
  DeviceKey key;
  std::string slice_name;
  std::string node_name;  // empty unless the device is local to one node
  bool all_nodes = false;
  bool node_selector = false;  // reachable from the nodes a slice selector picks
  bool pool_complete = true;
  bool allow_multiple_allocations = false;
  std::vector<api::DeviceTaint> taints;   // the slice's, then DeviceTaintRules'
  std::vector<std::string> allocated_to;  // claims, "<namespace>/<name>"
};

}  // namespace dra::inventory
