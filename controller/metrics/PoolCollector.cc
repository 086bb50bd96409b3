#include "controller/metrics/PoolCollector.h"

#include "controller/metrics/GaugeTable.h"

namespace dra::metrics {

void PoolCollector::Render(std::string& out, const std::vector<inventory::PoolStatus>& pools) {
  GaugeTable states("dra_controller_pools",
                    "Resource pools by state: complete (every slice of the newest generation "
                    "published) or incomplete (its devices are not allocatable)",
                    {"driver", "state"});
  GaugeTable generation("dra_controller_pool_generation",
                        "The newest generation published for a resource pool", {"driver", "pool"});
  for (const auto& pool : pools) {
    states.Ensure({pool.driver, "complete"});
    states.Ensure({pool.driver, "incomplete"});
    states.Add({pool.driver, pool.complete() ? "complete" : "incomplete"}, 1);
    generation.Set({pool.driver, pool.name}, static_cast<double>(pool.generation));
  }
  GaugeTable::RenderAll(out, {&states, &generation});
}

}  // namespace dra::metrics
