#pragma once

#include <prometheus/collectable.h>

#include <vector>

#include "controller/metrics/MetricsSources.h"

namespace dra::metrics {

// Every allocation family (see README "Metrics"), computed from the
// inventory on each Collect(): one pass over the claims, one over the
// devices, then the pools and classes. No API calls.
class AllocationMetrics : public prometheus::Collectable {
 public:
  explicit AllocationMetrics(MetricsSources sources);
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  MetricsSources sources_;
};

}  // namespace dra::metrics
