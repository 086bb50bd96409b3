#pragma once

#include <benchmark/benchmark.h>

#include "tests/bench/fleet/ControllerProcess.h"
#include "tests/bench/fleet/FleetReplay.h"
#include "tests/bench/fleet/FleetSizes.h"

namespace dra::bench {

// The Pod watch burst: burst_pods Pending GPU Pods ADDED, then DELETED, until
// the controller's pending gauge follows each; events/s as the stream was
// written and end to end, and the controller's CPU per event without the
// bench's own scrapes (`cpu_per_scrape` each).
class PodBurstMeasurement {
 public:
  static void Run(benchmark::State& state, const FleetSizes& s, FleetReplay& replay,
                  ControllerProcess& c, double cpu_per_scrape);

 private:
  // Asks for `burst`, waits until the pending gauge is `want`; seconds to it,
  // or -1 after 600 s.
  static double Phase(ControllerProcess& c, WatchBurst& burst, double want, int& scrapes);
};

}  // namespace dra::bench
