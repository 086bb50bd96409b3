#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>

#include <memory>

#include "controller/api/DeviceHealth.h"
#include "controller/health/SourcedHealthWriter.h"
#include "controller/kubelet/ReportVerifier.h"

namespace dra::kubelet {

// The kubelet source's metrics (registered through MetricFamilyCache):
//   dra_controller_kubelet_health_reports_total{health}   counter: device reports
//       read when a device is reconciled (Healthy, Unhealthy, Unknown)
//   dra_controller_kubelet_health_writes_total{outcome}   counter: created, updated,
//       unchanged, not_ours, deleted, error
//   dra_controller_kubelet_health_reports_ignored_total{reason}   counter: reports the
//       cluster does not confirm (not_allocated, other_node), never acted on
// Without a registry every call is a no-op. Thread-safe.
class KubeletHealthMetrics {
 public:
  explicit KubeletHealthMetrics(std::shared_ptr<prometheus::Registry> registry);

  void Report(api::HealthState health);
  void Write(health::SourcedWrite outcome);
  void Deleted();
  void WriteFailed();
  void Ignored(ReportTrust trust);

 private:
  void Count(prometheus::Family<prometheus::Counter>* family, const char* label, const char* value);

  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* reports_ = nullptr;
  prometheus::Family<prometheus::Counter>* writes_ = nullptr;
  prometheus::Family<prometheus::Counter>* ignored_ = nullptr;
};

}  // namespace dra::kubelet
