#pragma once

#include <benchmark/benchmark.h>

#include "tests/bench/fleet/FleetReplay.h"
#include "tests/bench/fleet/FleetSizes.h"

namespace dra::bench {

// DeviceHealth flips -> DeviceTaintRule apply request: from each change
// handed to the DeviceHealth watch (WriteEcho::Flip) to the first PATCH of
// its rule with the new effect that the server received after it; p50, p99,
// max and flips without such a write. The controller's writes are echoed on
// the watches, as kube-apiserver does.
class HealthFlipMeasurement {
 public:
  static void Run(benchmark::State& state, const FleetSizes& s, FleetReplay& replay);

 private:
  static void Flip(const FleetSizes& s, FleetReplay& replay);
};

}  // namespace dra::bench
