#include "tests/bench/fleet/PodBurstMeasurement.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "tests/bench/fleet/MetricsText.h"
#include "tests/bench/fleet/ProcessProbe.h"
#include "tests/bench/fleet/SampleStats.h"

namespace dra::bench {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kPending =
    R"(dra_controller_extended_resource_pods_pending{extended_resource="example.com/gpu")";

}  // namespace

double PodBurstMeasurement::Phase(ControllerProcess& c, WatchBurst& burst, double want,
                                  int& scrapes) {
  auto start = Clock::now();
  burst.wanted = true;
  // A scrape of this fleet is tens of MB: every 2 s, so that polling does not
  // take the controller's CPU from the burst.
  while (Clock::now() - start < 600s) {
    ++scrapes;
    if (MetricsText::Gauge(c.Scrape(), kPending) == want)
      return SampleStats::Seconds(start, Clock::now());
    std::this_thread::sleep_for(2s);
  }
  return -1;  // never
}

void PodBurstMeasurement::Run(benchmark::State& state, const FleetSizes& s, FleetReplay& replay,
                              ControllerProcess& c, double cpu_per_scrape) {
  double base = MetricsText::Gauge(c.Scrape(), kPending);
  double cpu0 = ProcessProbe::CpuSeconds(c.process->pid());
  int scrapes = 0;
  double add_s = Phase(c, replay.pod_add, base + s.burst_pods, scrapes);
  int64_t rss_added = ProcessProbe::StatusKib(c.process->pid(), "VmRSS");
  double del_s = Phase(c, replay.pod_delete, base, scrapes);
  double cpu = ProcessProbe::CpuSeconds(c.process->pid()) - cpu0 - scrapes * cpu_per_scrape;
  if (add_s < 0 || del_s < 0)
    return state.SkipWithError("the pending gauge never followed the burst");
  auto written = [&](const std::string& name) {
    auto a = replay.marks.At(name + "-start"), b = replay.marks.At(name + "-written");
    return a && b ? SampleStats::Seconds(*a, *b) : 0.0;
  };
  double streamed = written("ADDED") + written("DELETED");
  double events = 2.0 * s.burst_pods;
  std::printf(
      "Pod burst: %d ADDED + %d DELETED; stream written in %.2f s (%.0f events/s, the "
      "controller reading as it goes); pending gauge followed after %.2f + %.2f s "
      "(%.0f events/s end to end, metrics render throttle included); controller CPU "
      "%.2f s without the bench's %d scrapes (%.0f events per CPU second); VmRSS with the burst "
      "Pods %lld KiB, after "
      "%lld KiB\n",
      s.burst_pods, s.burst_pods, streamed, events / std::max(streamed, 1e-9), add_s, del_s,
      events / (add_s + del_s), cpu, scrapes, events / std::max(cpu, 1e-9),
      static_cast<long long>(rss_added),
      static_cast<long long>(ProcessProbe::StatusKib(c.process->pid(), "VmRSS")));
  state.counters["burst_events_per_s_stream"] = events / std::max(streamed, 1e-9);
  state.counters["burst_events_per_s_end_to_end"] = events / (add_s + del_s);
  state.counters["burst_events_per_cpu_s"] = events / std::max(cpu, 1e-9);
}

}  // namespace dra::bench
