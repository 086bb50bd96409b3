#include "tests/bench/fleet/FleetStreams.h"

#include <chrono>
#include <string>

#include "tests/bench/fleet/FleetObjects.h"

namespace dra::bench {

using namespace std::chrono_literals;
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

std::vector<StreamStep> FleetStreams::HealthFlips(const FleetSizes& s, StreamMarks& marks) {
  std::vector<StreamStep> steps;
  int rv = 600000;
  for (int round = 0; round < 2; ++round) {
    const char* state = round == 0 ? "Degraded" : "Unknown";
    for (int h = 0; h < s.healths; ++h) {
      steps.push_back(marks.Mark("flip-" + std::to_string(round) + "-" + std::to_string(h)));
      steps.push_back(StreamStep::Chunk(dra::testing::WatchEvent(
          "MODIFIED", FleetObjects::Health(h, s.nodes, 2 + round, ++rv, state))));
      steps.push_back(StreamStep::Pause(10ms));
    }
  }
  return steps;
}

}  // namespace dra::bench
