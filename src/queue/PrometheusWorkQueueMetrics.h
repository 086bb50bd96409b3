#pragma once

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>
#include <unordered_map>

#include "src/base/Clock.h"
#include "src/base/Result.h"
#include "src/queue/WorkQueueMetrics.h"

namespace kube {

// WorkQueueMetrics under client-go's names (workqueue_depth,
// workqueue_adds_total, workqueue_queue_duration_seconds,
// workqueue_work_duration_seconds, workqueue_unfinished_work_seconds,
// workqueue_longest_running_processor_seconds, workqueue_retries_total), one
// series per queue with label name="<queue name>". Families are shared by all
// queues of a registry. Durations are measured on `clock`, which should be
// the queue's clock. The two duration histograms double from 1 ms to 65.536 s
// (17 bounds) instead of client-go's ten powers of ten from 10 ns.
class PrometheusWorkQueueMetrics : public WorkQueueMetrics {
 public:
  static Result<std::unique_ptr<WorkQueueMetrics>> Create(
      std::shared_ptr<prometheus::Registry> registry, const std::string& queue_name,
      std::shared_ptr<Clock> clock);

  void OnAdd(const std::string& key) override;
  void OnGet(const std::string& key) override;
  void OnDone(const std::string& key) override;
  void OnRetry() override;
  void UpdateUnfinishedWork() override;

 private:
  struct Series {
    prometheus::Gauge* depth;
    prometheus::Counter* adds;
    prometheus::Histogram* queue_duration;
    prometheus::Histogram* work_duration;
    prometheus::Gauge* unfinished_work;
    prometheus::Gauge* longest_running;
    prometheus::Counter* retries;
  };

  static Result<Series> AddSeries(const std::shared_ptr<prometheus::Registry>& registry,
                                  const std::string& queue_name);
  PrometheusWorkQueueMetrics(std::shared_ptr<prometheus::Registry> registry, Series series,
                             std::shared_ptr<Clock> clock);
  double SecondsSince(Clock::TimePoint start) const;

  const std::shared_ptr<prometheus::Registry> registry_;  // keeps the series alive
  const Series series_;
  const std::shared_ptr<Clock> clock_;
  std::unordered_map<std::string, Clock::TimePoint> added_at_;
  std::unordered_map<std::string, Clock::TimePoint> started_at_;
};

}  // namespace kube
