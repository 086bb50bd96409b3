#include "tests/bench/fleet/ClientGoComparison.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/bench/fleet/ControllerProcess.h"
#include "tests/bench/fleet/ProcessProbe.h"
#include "tests/bench/fleet/SampleStats.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::bench {

using namespace std::chrono_literals;
using dra::testing::BackgroundProcess;
using Clock = std::chrono::steady_clock;

void ClientGoComparison::Run(benchmark::State& state, int server_port, const Figures& ours) {
  const char* cache = std::getenv("DRA_K8S_BIN_DIR");
  const char* home = std::getenv("HOME");
  std::string bin = cache != nullptr
                        ? std::string(cache) + "/informer-compare"
                        : std::string(home ? home : "/root") +
                              "/.cache/dra-controller/k8s-v1.37.2/bin/informer-compare";
  if (!std::filesystem::exists(bin)) {
    std::printf("client-go comparison skipped: no %s (run hack/bench/compare-client-go.sh once)\n",
                bin.c_str());
    return;
  }
  dra::testing::TempDir dir;
  auto start = Clock::now();
  auto process =
      BackgroundProcess::Start({"env", "KUBE_FEATURE_WatchListClient=false", bin, "--kubeconfig",
                                ControllerProcess::WriteKubeconfig(dir, server_port)});
  if (!process.ok()) return state.SkipWithError(process.status().ToString().c_str());
  auto synced = dra::testing::WaitFor("informer-compare synced", 900s, [&] {
    return (*process)->Output().find("synced ") != std::string::npos || !(*process)->Running();
  });
  if (!synced.ok() || !(*process)->Running()) {
    std::printf("client-go did not sync: %s\n", (*process)->Output().c_str());
    return;
  }
  Figures go{SampleStats::Seconds(start, Clock::now()), ProcessProbe::CpuSeconds((*process)->pid()),
             0};
  std::printf("informer-compare said: %s\n", (*process)->Output().substr(0, 2000).c_str());
  std::this_thread::sleep_for(15s);
  go.rss_kib = ProcessProbe::StatusKib((*process)->pid(), "VmRSS");
  std::printf(
      "client-go informer-compare: synced after %.2f s, CPU %.2f s, VmRSS %lld KiB after "
      "15 s, %lld threads\n",
      go.sync_s, go.sync_cpu_s, static_cast<long long>(go.rss_kib),
      static_cast<long long>(ProcessProbe::StatusKib((*process)->pid(), "Threads")));
  std::printf("dra-controller / client-go: RSS %.2fx, sync time %.2fx, CPU to sync %.2fx\n",
              static_cast<double>(ours.rss_kib) / static_cast<double>(go.rss_kib),
              ours.sync_s / go.sync_s, ours.sync_cpu_s / std::max(go.sync_cpu_s, 1e-9));
  state.counters["client_go_rss_ratio"] =
      static_cast<double>(ours.rss_kib) / static_cast<double>(go.rss_kib);
  state.counters["client_go_sync_ratio"] = ours.sync_s / go.sync_s;
  (*process)->Signal(SIGTERM);
  (*process)->Wait(30s);
}

}  // namespace dra::bench
