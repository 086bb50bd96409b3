#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

namespace dra::bench {

// client-go v0.37.2 shared informers for the same resources
// (hack/control-plane/k8s/cmd/informer-compare, built by
// hack/bench/compare-client-go.sh) on the same replayed fleet, with paged
// LISTs like the controller here (WatchListClient off: the scripted server
// does not stream initial events), and the ratios to the controller's
// figures. Skipped when the binary is not there.
class ClientGoComparison {
 public:
  struct Figures {
    double sync_s = 0;
    double sync_cpu_s = 0;
    int64_t rss_kib = 0;
  };

  static void Run(benchmark::State& state, int server_port, const Figures& ours);
};

}  // namespace dra::bench
