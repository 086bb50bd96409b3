#include "tests/bench/fleet/FleetReplay.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "tests/bench/fleet/FleetApiRoutes.h"
#include "tests/bench/fleet/FleetStreams.h"

namespace dra::bench {

using namespace std::chrono_literals;
using dra::testing::Gate;
using dra::testing::RecordedRequest;
using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using dra::testing::StreamStep;
using Clock = std::chrono::steady_clock;

namespace {

// Each connection has its own serving thread: when its current hold began.
Clock::time_point& HoldStart() {
  thread_local Clock::time_point start;
  return start;
}

}  // namespace

// The burst's stream: marked "<name>-start" (the request is no longer
// wanted), the events, marked "<name>-written", then the watch ends.
void FleetReplay::AddBurstRoute(WatchBurst& burst, const std::string& name,
                                std::vector<StreamStep> events) {
  std::vector<StreamStep> steps = {StreamStep::WaitFor([&burst] {
                                     burst.wanted = false;
                                     return true;
                                   }),
                                   marks.Mark(name + "-start")};
  for (auto& step : events) steps.push_back(std::move(step));
  steps.push_back(marks.Mark(name + "-written"));
  steps.push_back(StreamStep::End());
  server->AddRoute(Route::Where("GET",
                                [&burst](const RecordedRequest& r) {
                                  return burst.wanted && r.Path() == burst.path &&
                                         FleetApiRoutes::IsWatch(r);
                                })
                       .Once(),
                   {ScriptedResponse::Streamed(std::move(steps))});
}

// A watch with nothing to say ends after 170 s, before the client's 180 s
// idle limit, as a real one ends at its timeout; for a path with bursts also
// as soon as one is wanted. Only those poll (every millisecond).
std::vector<StreamStep> FleetReplay::Hold(const std::string& path) {
  std::vector<WatchBurst*> mine;
  for (WatchBurst* burst : Bursts()) {
    if (burst->path == path) mine.push_back(burst);
  }
  if (mine.empty()) {
    return {StreamStep::Pause(60s), StreamStep::Pause(60s), StreamStep::Pause(50s),
            StreamStep::End()};
  }
  Gate stopped = stop;
  return {StreamStep::WaitFor([] {
            HoldStart() = Clock::now();
            return true;
          }),
          StreamStep::WaitFor(
              [mine, stopped] {
                bool wanted = std::any_of(mine.begin(), mine.end(),
                                          [](const WatchBurst* b) { return b->wanted.load(); });
                return wanted || stopped.IsOpen() || Clock::now() - HoldStart() > 170s;
              },
              175s),
          StreamStep::End()};
}

std::vector<StreamStep> FleetReplay::Fed(std::shared_ptr<dra::testing::ChunkFeed> feed) {
  return {StreamStep::Feed(feed, 60s), StreamStep::Feed(feed, 60s), StreamStep::Feed(feed, 50s),
          StreamStep::End()};
}

void FleetReplay::AddWatchRoutes(const FleetSizes& s, const Fleet& fleet) {
  AddBurstRoute(pod_add, "ADDED", FleetStreams::PodEvents(s, "ADDED", 500000));
  AddBurstRoute(pod_delete, "DELETED",
                FleetStreams::PodEvents(s, "DELETED", 500000 + s.burst_pods));
  const std::map<std::string, std::shared_ptr<dra::testing::ChunkFeed>> fed = {
      {Fleet::kHealths, echo->healths()}, {Fleet::kRules, echo->rules()}};
  for (const auto& entry : fleet.items) {
    std::string path = entry.first;
    auto feed = fed.find(path);
    server->AddRoute(
        Route::Where("GET",
                     [path](const RecordedRequest& r) {
                       return r.Path() == path && FleetApiRoutes::IsWatch(r);
                     }),
        {ScriptedResponse::Streamed(feed == fed.end() ? Hold(path) : Fed(feed->second))});
  }
}

std::unique_ptr<FleetReplay> FleetReplay::Start(const FleetSizes& s, const Fleet& fleet) {
  auto replay = std::unique_ptr<FleetReplay>(new FleetReplay());
  auto server = ScriptedHttpServer::Start();
  if (!server.ok()) return nullptr;
  replay->server = std::move(*server);
  auto& srv = *replay->server;
  srv.AddRoute(
      Route::Exact("GET", "/version"),
      {ScriptedResponse::Json(200, R"({"major":"1","minor":"37","gitVersion":"v1.37.2"})")});
  srv.AddRoute(Route::Exact("GET", "/apis/resource.k8s.io/v1"),
               {ScriptedResponse::Json(
                   200, FleetApiRoutes::Discovery("resource.k8s.io/v1",
                                                  {"deviceclasses", "resourceslices",
                                                   "resourceclaims", "devicetaintrules"}))});
  srv.AddRoute(Route::Exact("GET", "/apis/dra-controller.dev/v1alpha1"),
               {ScriptedResponse::Json(
                   200, FleetApiRoutes::Discovery("dra-controller.dev/v1alpha1",
                                                  {"devicehealths", "devicehealths/status"}))});
  replay->echo = std::make_unique<WriteEcho>(fleet.items.at(Fleet::kHealths));
  replay->echo->AddRoutes(srv);  // before the catch-all writes
  FleetApiRoutes::AddWrites(srv);
  replay->AddWatchRoutes(s, fleet);
  for (const auto& [path, items] : fleet.items) FleetApiRoutes::AddList(srv, path, items);
  FleetReplay* counted = replay.get();  // last: counts what no route answers (a 404)
  srv.AddRoute(Route::Where("",
                            [counted](const RecordedRequest&) {
                              ++counted->unmatched;
                              return false;
                            }),
               {});
  return replay;
}

}  // namespace dra::bench
