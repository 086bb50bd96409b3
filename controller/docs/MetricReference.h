#pragma once

#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::docs {

// docs/reference/metrics.md: every family `run` exports on /metrics. The
// registered ones come from constructing, against a fresh registry, the
// objects that register them in `run` (no cluster needed: nothing starts),
// and reading what MetricFamilyCache recorded; the allocation families from
// rendering AllocationMetrics over an empty inventory and recording each
// family it starts.
class MetricReference {
 public:
  using Family = kube::MetricFamilyCache::Description;

  // Sorted by name. An error when a series carries labels its family did
  // not declare.
  static kube::Result<std::vector<Family>> RegisteredFamilies();
  // In the order /metrics shows them.
  static std::vector<Family> AllocationFamilies();
  static kube::Result<std::string> Markdown();
};

}  // namespace dra::docs
