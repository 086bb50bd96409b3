#pragma once

#include <string>

#include "controller/metrics/MetricsSources.h"

namespace dra::metrics {

// Every allocation family (see README "Metrics") as Prometheus text
// exposition, computed from the inventory on each Render(): one pass over the
// claims, one over the devices, then the pools and classes. No API calls.
// Families come in a fixed order, series sorted by their label values.
class AllocationMetrics {
 public:
  explicit AllocationMetrics(MetricsSources sources);
  std::string Render() const;

 private:
  MetricsSources sources_;
};

}  // namespace dra::metrics
