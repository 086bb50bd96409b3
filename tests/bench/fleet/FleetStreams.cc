#include "tests/bench/fleet/FleetStreams.h"

#include <string>

#include "tests/bench/fleet/FleetObjects.h"

namespace dra::bench {

using dra::testing::StreamStep;

namespace {

std::string BurstPod(int i, int rv) {
  return FleetObjects::Pod(FleetObjects::Fmt("burst-%06d", i), "burst", FleetObjects::Uid(8, i), rv,
                           "", "", true);
}

}  // namespace

std::vector<StreamStep> FleetStreams::PodEvents(const FleetSizes& s, const char* type, int rv) {
  std::vector<StreamStep> steps;
  std::string chunk;
  for (int i = 0; i < s.burst_pods; ++i) {
    chunk += dra::testing::WatchEvent(type, BurstPod(i, ++rv));
    if (i % 100 == 99 || i + 1 == s.burst_pods) {
      steps.push_back(StreamStep::Chunk(std::move(chunk)));
      chunk.clear();
    }
  }
  return steps;
}

}  // namespace dra::bench
