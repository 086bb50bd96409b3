#pragma once

#include <prometheus/collectable.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/base/Status.h"

namespace dra::metrics {

// Copies the gauge families a Collectable computes into gauge families of a
// shared registry (registered through kube::MetricFamilyCache), so they are
// served by the Manager's /metrics. Each Refresh() sets every series and
// removes the series the source no longer reports: no stale series after a
// node, pool, class or Pod is gone. Thread-safe.
class RegistryMirror {
 public:
  RegistryMirror(std::shared_ptr<prometheus::Registry> registry,
                 std::shared_ptr<const prometheus::Collectable> source);

  kube::Status Refresh();

 private:
  using Labels = std::map<std::string, std::string>;
  struct Mirrored {
    prometheus::Family<prometheus::Gauge>* family = nullptr;
    std::map<Labels, prometheus::Gauge*> series;
  };

  kube::Status Apply(const prometheus::MetricFamily& family);

  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<const prometheus::Collectable> source_;
  std::mutex mu_;
  std::map<std::string, Mirrored> families_;
};

}  // namespace dra::metrics
