#pragma once

#include <benchmark/benchmark.h>

#include <utility>
#include <vector>

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
  // Rule writes (apply, delete) and DeviceHealth status patches that arrived
  // from `since` on, changed or not.
  static std::pair<int, int> WritesSince(const std::vector<dra::testing::RecordedRequest>& requests,
                                         StreamMarks::Clock::time_point since);
};

}  // namespace dra::bench
