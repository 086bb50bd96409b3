#pragma once

#include <string>
#include <vector>

#include "controller/inventory/PoolTracker.h"

namespace dra::metrics {

// dra_controller_pools{driver,state} (complete / incomplete; both present
// for every driver with a pool) and dra_controller_pool_generation{driver,pool}.
class PoolCollector {
 public:
  static void Render(std::string& out, const std::vector<inventory::PoolStatus>& pools);
};

}  // namespace dra::metrics
