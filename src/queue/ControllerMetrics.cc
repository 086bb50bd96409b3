#include "src/queue/ControllerMetrics.h"

#include <exception>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

// controller-runtime's buckets, 5 ms .. 60 s.
prometheus::Histogram::BucketBoundaries ReconcileTimeBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1,  0.15, 0.2,  0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6,
          0.7,   0.8,  0.9,   1.0,  1.25, 1.5,  1.75, 2.0,  2.5, 3.0,  3.5, 4.0,  4.5, 5,
          6,     7,    8,     9,    10,   15,   20,   25,   30,  40,   50,  60};
}

}  // namespace

Result<std::unique_ptr<ControllerMetrics>> ControllerMetrics::Create(
    std::shared_ptr<prometheus::Registry> registry, const std::string& controller_name) {
  Result<Series> series = AddSeries(registry, controller_name);
  if (!series.ok()) return series.status().WithContext("metrics of controller " + controller_name);
  return std::unique_ptr<ControllerMetrics>(new ControllerMetrics(std::move(registry), *series));
}

Result<ControllerMetrics::Series> ControllerMetrics::AddSeries(
    const std::shared_ptr<prometheus::Registry>& registry, const std::string& controller_name) {
  using Cache = MetricFamilyCache;
  prometheus::Family<prometheus::Counter>* total = nullptr;
  prometheus::Family<prometheus::Counter>* errors = nullptr;
  prometheus::Family<prometheus::Counter>* panics = nullptr;
  prometheus::Family<prometheus::Histogram>* time = nullptr;
  prometheus::Family<prometheus::Gauge>* active = nullptr;
  prometheus::Family<prometheus::Gauge>* max_concurrent = nullptr;
  KUBE_ASSIGN_OR_RETURN(total, Cache::Counter(registry, "controller_runtime_reconcile_total",
                                              "Total number of reconciliations per controller",
                                              {"controller", "result"}));
  KUBE_ASSIGN_OR_RETURN(
      errors,
      Cache::Counter(registry, "controller_runtime_reconcile_errors_total",
                     "Total number of reconciliation errors per controller", {"controller"}));
  KUBE_ASSIGN_OR_RETURN(
      panics,
      Cache::Counter(registry, "controller_runtime_reconcile_panics_total",
                     "Total number of reconciliation panics per controller", {"controller"}));
  KUBE_ASSIGN_OR_RETURN(
      time, Cache::Histogram(registry, "controller_runtime_reconcile_time_seconds",
                             "Length of time per reconciliation per controller", {"controller"}));
  KUBE_ASSIGN_OR_RETURN(
      active, Cache::Gauge(registry, "controller_runtime_active_workers",
                           "Number of currently used workers per controller", {"controller"}));
  KUBE_ASSIGN_OR_RETURN(
      max_concurrent,
      Cache::Gauge(registry, "controller_runtime_max_concurrent_reconciles",
                   "Maximum number of concurrent reconciles per controller", {"controller"}));
  const prometheus::Labels labels{{"controller", controller_name}};
  auto with_result = [&](const char* result) {
    prometheus::Labels l = labels;
    l.emplace("result", result);
    return &total->Add(l);
  };
  try {
    // Every result series exists from the start, as in controller-runtime,
    // so rates over them work before the first error.
    return Series{with_result("success"),
                  with_result("error"),
                  with_result("requeue"),
                  with_result("requeue_after"),
                  &errors->Add(labels),
                  &panics->Add(labels),
                  &time->Add(labels, ReconcileTimeBuckets()),
                  &active->Add(labels),
                  &max_concurrent->Add(labels)};
  } catch (const std::exception& e) {
    return Status(StatusCode::kInvalidArgument, std::string("cannot add series: ") + e.what());
  }
}

ControllerMetrics::ControllerMetrics(std::shared_ptr<prometheus::Registry> registry, Series series)
    : registry_(std::move(registry)), series_(series) {}

void ControllerMetrics::SetMaxConcurrentReconciles(int workers) {
  series_.max_concurrent_reconciles->Set(workers);
}

void ControllerMetrics::ReconcileStarted() { series_.active_workers->Increment(); }

void ControllerMetrics::ReconcileFinished(Outcome outcome, double seconds, bool threw) {
  series_.active_workers->Decrement();
  series_.reconcile_time->Observe(seconds);
  TotalFor(outcome)->Increment();
  if (outcome == Outcome::kError) series_.errors->Increment();
  if (threw) series_.panics->Increment();
}

prometheus::Counter* ControllerMetrics::TotalFor(Outcome outcome) const {
  switch (outcome) {
    case Outcome::kSuccess:
      return series_.success;
    case Outcome::kError:
      return series_.error;
    case Outcome::kRequeue:
      return series_.requeue;
    case Outcome::kRequeueAfter:
      return series_.requeue_after;
  }
  return series_.error;
}

}  // namespace kube
