#include "tests/bench/fleet/ScrapeMeasurement.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/bench/fleet/MetricsText.h"
#include "tests/bench/fleet/ProcessProbe.h"
#include "tests/bench/fleet/SampleStats.h"

namespace dra::bench {

using Clock = std::chrono::steady_clock;

double ScrapeMeasurement::Scrapes(benchmark::State& state, ControllerProcess& c) {
  std::vector<double> millis;
  size_t bytes = 0;
  double cpu0 = ProcessProbe::CpuSeconds(c.process->pid());
  for (int i = 0; i < 10; ++i) {
    auto start = Clock::now();
    bytes = c.Scrape().size();
    millis.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  double per_scrape = (ProcessProbe::CpuSeconds(c.process->pid()) - cpu0) / 10;
  std::printf(
      "/metrics scrape: median %.1f ms, max %.1f ms, %zu bytes, %.0f ms controller CPU "
      "each\n",
      SampleStats::Percentile(millis, 0.5), SampleStats::Percentile(millis, 1.0), bytes,
      per_scrape * 1000);
  state.counters["scrape_ms_median"] = SampleStats::Percentile(millis, 0.5);
  return per_scrape;
}

void ScrapeMeasurement::Queues(benchmark::State& state, ControllerProcess& c) {
  std::string text = c.Scrape();
  for (const char* family :
       {"workqueue_queue_duration_seconds", "workqueue_work_duration_seconds"}) {
    for (auto [name, p99] : MetricsText::HistogramP99(text, family)) {
      std::printf("%s{name=\"%s\"} p99 in (%g, %g] s\n", family, name.c_str(), p99.first,
                  p99.second);
      if (std::string(family) == "workqueue_queue_duration_seconds") {
        state.counters["queue_p99_le_ms_" + name] = p99.second * 1000;
      }
    }
  }
}

}  // namespace dra::bench
