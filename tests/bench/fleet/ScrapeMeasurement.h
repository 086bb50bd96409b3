#pragma once

#include <benchmark/benchmark.h>

#include "tests/bench/fleet/ControllerProcess.h"

namespace dra::bench {

// The controller's /metrics: scrape time and the work queues' p99 buckets.
class ScrapeMeasurement {
 public:
  // Ten scrapes: median and max time, size, controller CPU; returns the
  // controller's CPU seconds per scrape.
  static double Scrapes(benchmark::State& state, ControllerProcess& c);
  // The bucket holding the p99 of workqueue_queue_duration_seconds and
  // workqueue_work_duration_seconds, per queue.
  static void Queues(benchmark::State& state, ControllerProcess& c);
};

}  // namespace dra::bench
