#pragma once

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>

#include "src/base/Result.h"

namespace kube {

// A controller loop's metrics under controller-runtime's names, with label
// controller="<name>":
//   controller_runtime_reconcile_total{result=success|error|requeue|requeue_after}
//   controller_runtime_reconcile_errors_total
//   controller_runtime_reconcile_panics_total (Reconcile threw)
//   controller_runtime_reconcile_time_seconds (histogram)
//   controller_runtime_active_workers
//   controller_runtime_max_concurrent_reconciles
// Thread-safe (prometheus-cpp metrics are).
class ControllerMetrics {
 public:
  enum class Outcome { kSuccess, kError, kRequeue, kRequeueAfter };

  static Result<std::unique_ptr<ControllerMetrics>> Create(
      std::shared_ptr<prometheus::Registry> registry, const std::string& controller_name);

  void SetMaxConcurrentReconciles(int workers);
  void ReconcileStarted();
  // `threw` marks a Reconcile that ended in an exception (always kError).
  void ReconcileFinished(Outcome outcome, double seconds, bool threw);

 private:
  struct Series {
    prometheus::Counter* success;
    prometheus::Counter* error;
    prometheus::Counter* requeue;
    prometheus::Counter* requeue_after;
    prometheus::Counter* errors;
    prometheus::Counter* panics;
    prometheus::Histogram* reconcile_time;
    prometheus::Gauge* active_workers;
    prometheus::Gauge* max_concurrent_reconciles;
  };

  static Result<Series> AddSeries(const std::shared_ptr<prometheus::Registry>& registry,
                                  const std::string& controller_name);
  ControllerMetrics(std::shared_ptr<prometheus::Registry> registry, Series series);
  prometheus::Counter* TotalFor(Outcome outcome) const;

  const std::shared_ptr<prometheus::Registry> registry_;  // keeps the series alive
  const Series series_;
};

}  // namespace kube
