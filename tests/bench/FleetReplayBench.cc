// Full-size fleet replay: the real `dra-controller run` binary syncs a
// generated fleet that the scripted server (tests/support/ScriptedHttpServer)
// serves as paged LISTs and WATCH streams, in place of kube-apiserver:
//   5,000 Nodes; per node a gpu.example.com pool of 8 GPUs (every 25th pool
//   incomplete: resourceSliceCount 2, one slice), a nic.example.com pool of 2
//   NICs and, on every 4th node, a partitionable mig.example.com pool (a
//   counter slice and three partitions consuming it); 3 DeviceClasses (gpu and
//   nic name extended resources); 150,000 Pods bound to nodes in 50
//   namespaces, 30,000 of them asking for example.com/gpu with the implicit
//   ResourceClaim the scheduler would have made (allocated, reserved); 250
//   DeviceHealth objects.
// Reported (stdout and counters): time to /readyz (every cache synced), RSS at
// sync, peak and steady, RSS growth over the same process on an empty fleet
// per cached object, /metrics scrape time, a Pod watch burst (ADDED then
// DELETED Pods, events/s and controller CPU per event), DeviceHealth flips ->
// DeviceTaintRule apply request p99, work-queue p99 and CPU at idle; then
// client-go's informer-compare syncs the same replay, and the ratios are
// printed. FLEET_NODES, FLEET_GPU_PODS, FLEET_PLAIN_PODS, FLEET_HEALTHS,
// FLEET_BURST_PODS, FLEET_IDLE_SECONDS, FLEET_SETTLE_SECONDS change the sizes (`make bench-fleet`;
// README "Fleet results").
#include <benchmark/benchmark.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "tests/bench/fleet/ClientGoComparison.h"
#include "tests/bench/fleet/ControllerProcess.h"
#include "tests/bench/fleet/Fleet.h"
#include "tests/bench/fleet/FleetReplay.h"
#include "tests/bench/fleet/FleetSizes.h"
#include "tests/bench/fleet/HealthFlipMeasurement.h"
#include "tests/bench/fleet/MetricsText.h"
#include "tests/bench/fleet/PodBurstMeasurement.h"
#include "tests/bench/fleet/ProcessProbe.h"
#include "tests/bench/fleet/SampleStats.h"
#include "tests/bench/fleet/ScrapeMeasurement.h"

namespace {

using namespace std::chrono_literals;
using namespace dra::bench;
using Clock = std::chrono::steady_clock;

// RSS of the controller on an empty fleet, settled: the per-object baseline.
int64_t EmptyRssKib() {
  FleetSizes empty = FleetSizes::Empty();
  auto replay = FleetReplay::Start(empty, Fleet::Make(empty));
  ControllerProcess c;
  if (!replay || !c.Start(replay->server->port()).ok()) return 0;
  std::this_thread::sleep_for(10s);
  int64_t rss = ProcessProbe::StatusKib(c.process->pid(), "VmRSS");
  replay->stop.Open();
  c.process->Signal(SIGTERM);
  c.process->Wait(30s);
  return rss;
}

void BM_FleetReplay(benchmark::State& state) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress as it happens
  FleetSizes s;
  int64_t empty_kib = EmptyRssKib();
  auto build_start = Clock::now();
  Fleet fleet = Fleet::Make(s);
  auto replay = FleetReplay::Start(s, fleet);
  if (!replay) return state.SkipWithError("scripted server did not start");
  std::printf(
      "fleet: %zu objects (%zu pods, %zu claims, %zu slices, %zu nodes) generated in %.1f s; "
      "load %s",
      fleet.objects, fleet.items["/api/v1/pods"].size(),
      fleet.items["/apis/resource.k8s.io/v1/resourceclaims"].size(),
      fleet.items["/apis/resource.k8s.io/v1/resourceslices"].size(),
      fleet.items["/api/v1/nodes"].size(), SampleStats::Seconds(build_start, Clock::now()),
      [] {
        std::ifstream l("/proc/loadavg");
        std::string a;
        std::getline(l, a);
        return a + "\n";
      }()
          .c_str());
  fleet.items.clear();  // the server holds the pages
  for (auto _ : state) {
    ControllerProcess c;
    auto started = c.Start(replay->server->port());
    if (!started.ok()) return state.SkipWithError(started.ToString().c_str());
    pid_t pid = c.process->pid();
    int64_t rss_sync = ProcessProbe::StatusKib(pid, "VmRSS"),
            hwm_sync = ProcessProbe::StatusKib(pid, "VmHWM");
    std::this_thread::sleep_for(15s);
    int64_t rss = ProcessProbe::StatusKib(pid, "VmRSS");
    std::smatch synced;
    std::string log = c.process->Output();
    std::regex synced_re("\\d+ informer caches synced in \\d+ ms");
    std::printf("%s\n", std::regex_search(log, synced, synced_re) ? synced.str().c_str() : "");
    std::printf(
        "sync (exec -> /readyz): %.2f s, controller CPU %.2f s; RSS at sync %lld KiB (VmHWM %lld), "
        "steady (+15 s) "
        "%lld KiB; empty-fleet RSS %lld KiB; (steady - empty) / objects = %.0f bytes; "
        "%lld threads\n",
        c.sync_seconds, c.sync_cpu_seconds, static_cast<long long>(rss_sync),
        static_cast<long long>(hwm_sync), static_cast<long long>(rss),
        static_cast<long long>(empty_kib),
        (rss - empty_kib) * 1024.0 / static_cast<double>(fleet.objects),
        static_cast<long long>(ProcessProbe::StatusKib(pid, "Threads")));
    state.counters["sync_s"] = c.sync_seconds;
    state.counters["rss_steady_mib"] = static_cast<double>(rss) / 1024;
    state.counters["bytes_per_object"] =
        (rss - empty_kib) * 1024.0 / static_cast<double>(fleet.objects);
    double cpu_per_scrape = ScrapeMeasurement::Scrapes(state, c);
    std::string text = c.Scrape();
    std::printf(
        "pools: %.0f complete, %.0f incomplete; mig.example.com devices allocatable (per "
        "class): %.0f\n",
        MetricsText::Gauge(text,
                           R"(dra_controller_pools{driver="mig.example.com",state="complete"})") +
            MetricsText::Gauge(
                text, R"(dra_controller_pools{driver="gpu.example.com",state="complete"})") +
            MetricsText::Gauge(
                text, R"(dra_controller_pools{driver="nic.example.com",state="complete"})"),
        MetricsText::Gauge(text,
                           R"(dra_controller_pools{driver="gpu.example.com",state="incomplete"})"),
        MetricsText::Gauge(text, R"(dra_controller_devices_allocatable{driver="mig.example.com")"));
    PodBurstMeasurement::Run(state, s, *replay, c, cpu_per_scrape);
    HealthFlipMeasurement::Run(state, s, *replay);
    ScrapeMeasurement::Queues(state, c);
    std::printf("peak VmHWM %lld KiB\n",
                static_cast<long long>(ProcessProbe::StatusKib(pid, "VmHWM")));
    state.counters["rss_peak_mib"] =
        static_cast<double>(ProcessProbe::StatusKib(pid, "VmHWM")) / 1024;
    std::this_thread::sleep_for(std::chrono::seconds(s.settle_seconds));
    double cpu0 = ProcessProbe::CpuSeconds(pid);
    std::this_thread::sleep_for(std::chrono::seconds(s.idle_seconds));
    double idle = ProcessProbe::CpuSeconds(pid) - cpu0;
    std::printf(
        "CPU at idle: %.2f s over %d s (%.2f millicores); VmRSS then %lld KiB; "
        "unmatched requests %d; script errors %zu\n",
        idle, s.idle_seconds, idle / s.idle_seconds * 1000,
        static_cast<long long>(ProcessProbe::StatusKib(pid, "VmRSS")), replay->unmatched.load(),
        replay->server->ScriptErrors().size());
    state.counters["idle_millicores"] = idle / s.idle_seconds * 1000;
    c.process->Signal(SIGTERM);
    c.process->Wait(30s);
    ClientGoComparison::Run(state, replay->server->port(),
                            {c.sync_seconds, c.sync_cpu_seconds, rss});
    replay->stop.Open();
  }
}

BENCHMARK(BM_FleetReplay)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
