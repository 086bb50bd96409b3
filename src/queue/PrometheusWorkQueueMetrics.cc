#include "src/queue/PrometheusWorkQueueMetrics.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

// Not client-go's buckets (10 ns .. 10 s, one per power of ten: a p99 is only
// known to within 10x): 1 ms .. 65.536 s doubling, 17 bounds, so a p99 anywhere
// from a millisecond to a minute is known to within 2x.
prometheus::Histogram::BucketBoundaries DurationBuckets() {
  prometheus::Histogram::BucketBoundaries buckets;
  for (double bound = 1e-3; buckets.size() < 17; bound *= 2) buckets.push_back(bound);
  return buckets;
}

}  // namespace

Result<std::unique_ptr<WorkQueueMetrics>> PrometheusWorkQueueMetrics::Create(
    std::shared_ptr<prometheus::Registry> registry, const std::string& queue_name,
    std::shared_ptr<Clock> clock) {
  Result<Series> series = AddSeries(registry, queue_name);
  if (!series.ok()) return series.status().WithContext("workqueue metrics for " + queue_name);
  return std::unique_ptr<WorkQueueMetrics>(
      new PrometheusWorkQueueMetrics(std::move(registry), *series, std::move(clock)));
}

Result<PrometheusWorkQueueMetrics::Series> PrometheusWorkQueueMetrics::AddSeries(
    const std::shared_ptr<prometheus::Registry>& registry, const std::string& queue_name) {
  using Cache = MetricFamilyCache;
  prometheus::Family<prometheus::Gauge>* depth = nullptr;
  prometheus::Family<prometheus::Counter>* adds = nullptr;
  prometheus::Family<prometheus::Histogram>* queue_duration = nullptr;
  prometheus::Family<prometheus::Histogram>* work_duration = nullptr;
  prometheus::Family<prometheus::Gauge>* unfinished_work = nullptr;
  prometheus::Family<prometheus::Gauge>* longest_running = nullptr;
  prometheus::Family<prometheus::Counter>* retries = nullptr;
  KUBE_ASSIGN_OR_RETURN(
      depth, Cache::Gauge(registry, "workqueue_depth", "Current depth of workqueue", {"name"}));
  KUBE_ASSIGN_OR_RETURN(adds,
                        Cache::Counter(registry, "workqueue_adds_total",
                                       "Total number of adds handled by workqueue", {"name"}));
  KUBE_ASSIGN_OR_RETURN(
      queue_duration,
      Cache::Histogram(registry, "workqueue_queue_duration_seconds",
                       "How long in seconds an item stays in workqueue before being requested.",
                       {"name"}));
  KUBE_ASSIGN_OR_RETURN(
      work_duration,
      Cache::Histogram(registry, "workqueue_work_duration_seconds",
                       "How long in seconds processing an item from workqueue takes.", {"name"}));
  KUBE_ASSIGN_OR_RETURN(
      unfinished_work,
      Cache::Gauge(registry, "workqueue_unfinished_work_seconds",
                   "How many seconds of work has been done that is in progress and hasn't been "
                   "observed by work_duration. Large values indicate stuck threads. One can "
                   "deduce the number of stuck threads by observing the rate at which this "
                   "increases.",
                   {"name"}));
  KUBE_ASSIGN_OR_RETURN(
      longest_running,
      Cache::Gauge(registry, "workqueue_longest_running_processor_seconds",
                   "How many seconds has the longest running processor for workqueue been "
                   "running.",
                   {"name"}));
  KUBE_ASSIGN_OR_RETURN(retries,
                        Cache::Counter(registry, "workqueue_retries_total",
                                       "Total number of retries handled by workqueue", {"name"}));
  const prometheus::Labels labels{{"name", queue_name}};
  try {
    return Series{&depth->Add(labels),
                  &adds->Add(labels),
                  &queue_duration->Add(labels, DurationBuckets()),
                  &work_duration->Add(labels, DurationBuckets()),
                  &unfinished_work->Add(labels),
                  &longest_running->Add(labels),
                  &retries->Add(labels)};
  } catch (const std::exception& e) {
    return Status(StatusCode::kInvalidArgument, std::string("cannot add series: ") + e.what());
  }
}

PrometheusWorkQueueMetrics::PrometheusWorkQueueMetrics(
    std::shared_ptr<prometheus::Registry> registry, Series series, std::shared_ptr<Clock> clock)
    : registry_(std::move(registry)), series_(series), clock_(std::move(clock)) {}

void PrometheusWorkQueueMetrics::OnAdd(const std::string& key) {
  series_.adds->Increment();
  series_.depth->Increment();
  added_at_.try_emplace(key, clock_->Now());
}

void PrometheusWorkQueueMetrics::OnGet(const std::string& key) {
  series_.depth->Decrement();
  started_at_[key] = clock_->Now();
  if (auto it = added_at_.find(key); it != added_at_.end()) {
    series_.queue_duration->Observe(SecondsSince(it->second));
    added_at_.erase(it);
  }
}

void PrometheusWorkQueueMetrics::OnDone(const std::string& key) {
  if (auto it = started_at_.find(key); it != started_at_.end()) {
    series_.work_duration->Observe(SecondsSince(it->second));
    started_at_.erase(it);
  }
}

void PrometheusWorkQueueMetrics::OnRetry() { series_.retries->Increment(); }

void PrometheusWorkQueueMetrics::UpdateUnfinishedWork() {
  double total = 0;
  double longest = 0;
  for (const auto& [key, start] : started_at_) {
    const double age = SecondsSince(start);
    total += age;
    longest = std::max(longest, age);
  }
  series_.unfinished_work->Set(total);
  series_.longest_running->Set(longest);
}

double PrometheusWorkQueueMetrics::SecondsSince(Clock::TimePoint start) const {
  return std::chrono::duration<double>(clock_->Now() - start).count();
}

}  // namespace kube
