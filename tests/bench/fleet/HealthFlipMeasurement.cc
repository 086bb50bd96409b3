#include "tests/bench/fleet/HealthFlipMeasurement.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
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

std::pair<int, int> HealthFlipMeasurement::WritesSince(const std::vector<RecordedRequest>& requests,
                                                       StreamMarks::Clock::time_point since) {
  const std::string rules = "/apis/resource.k8s.io/v1/devicetaintrules/";
  const std::string healths = "/apis/dra-controller.dev/v1alpha1/devicehealths/";
  int rule_writes = 0, status_writes = 0;
  for (const auto& r : requests) {
    if (r.arrived_at < since || r.method == "GET") continue;
    std::string path = r.Path();
    if (path.rfind(rules, 0) == 0) ++rule_writes;
    if (path.rfind(healths, 0) == 0 && path.ends_with("/status")) ++status_writes;
  }
  return {rule_writes, status_writes};
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
  auto [rule_writes, status_writes] = WritesSince(requests, *replay.marks.At("flip-0-0"));
  std::printf(
      "DeviceHealth flip -> DeviceTaintRule apply request: %zu flips (1 per 10 ms), "
      "p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d without a matching write; "
      "%d rule writes and %d status patches received, %d of them changed something "
      "(echoed on the watches)\n",
      millis.size(), SampleStats::Percentile(millis, 0.5), SampleStats::Percentile(millis, 0.99),
      SampleStats::Percentile(millis, 1.0), missed, rule_writes, status_writes,
      replay.echo->echoed() - echoed_before - 2 * s.healths);
  state.counters["health_rule_writes"] = rule_writes;
  state.counters["health_status_patches"] = status_writes;
  if (missed > 0) state.SkipWithError("DeviceHealth flips without a matching rule write");
  state.counters["health_to_rule_p99_ms"] = SampleStats::Percentile(millis, 0.99);
  state.counters["health_flips_missed"] = missed;
}

}  // namespace dra::bench
