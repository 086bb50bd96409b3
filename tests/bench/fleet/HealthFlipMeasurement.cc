#include "tests/bench/fleet/HealthFlipMeasurement.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "tests/bench/fleet/FleetObjects.h"
#include "tests/bench/fleet/SampleStats.h"

namespace dra::bench {

using namespace std::chrono_literals;
using dra::testing::RecordedRequest;

// Every DeviceHealth goes Degraded, then back to Unknown, one change every
// 10 ms, each marked "flip-<round>-<h>" as it is handed to the watch.
void HealthFlipMeasurement::Flip(const FleetSizes& s, FleetReplay& replay) {
  for (int round = 0; round < 2; ++round) {
    const char* state = round == 0 ? "Degraded" : "Unknown";
    for (int h = 0; h < s.healths; ++h) {
      replay.marks.Record("flip-" + std::to_string(round) + "-" + std::to_string(h));
      replay.echo->Flip(FleetObjects::Fmt("fleet-health-%05d", h), state);
      std::this_thread::sleep_for(10ms);
    }
  }
}

void HealthFlipMeasurement::Run(benchmark::State& state, const FleetSizes& s, FleetReplay& replay) {
  int echoed_before = replay.echo->echoed();
  Flip(s, replay);
  std::this_thread::sleep_for(5s);  // the last flips' rules
  auto requests = replay.server->Requests();
  std::vector<double> millis;
  int missed = 0;
  for (int round = 0; round < 2; ++round) {
    std::string effect = round == 0 ? R"("effect":"NoSchedule")" : R"("effect":"None")";
    for (int h = 0; h < s.healths; ++h) {
      auto sent = replay.marks.At("flip-" + std::to_string(round) + "-" + std::to_string(h));
      std::string path = "/apis/resource.k8s.io/v1/devicetaintrules/devicehealth-" +
                         FleetObjects::Fmt("fleet-health-%05d", h);
      auto hit = std::find_if(requests.begin(), requests.end(), [&](const RecordedRequest& r) {
        return sent && r.method == "PATCH" && r.Path() == path && r.arrived_at >= *sent &&
               r.body.find(effect) != std::string::npos;
      });
      if (hit == requests.end()) {
        ++missed;
        continue;
      }
      millis.push_back(std::chrono::duration<double, std::milli>(hit->arrived_at - *sent).count());
    }
  }
  std::printf(
      "DeviceHealth flip -> DeviceTaintRule apply request: %zu flips (1 per 10 ms), "
      "p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d without a matching write; "
      "%d writes echoed on the watches\n",
      millis.size(), SampleStats::Percentile(millis, 0.5), SampleStats::Percentile(millis, 0.99),
      SampleStats::Percentile(millis, 1.0), missed,
      replay.echo->echoed() - echoed_before - 2 * s.healths);
  if (missed > 0) state.SkipWithError("DeviceHealth flips without a matching rule write");
  state.counters["health_to_rule_p99_ms"] = SampleStats::Percentile(millis, 0.99);
  state.counters["health_flips_missed"] = missed;
}

}  // namespace dra::bench
