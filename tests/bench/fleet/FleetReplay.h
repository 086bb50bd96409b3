#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "tests/bench/fleet/Fleet.h"
#include "tests/bench/fleet/FleetSizes.h"
#include "tests/bench/fleet/StreamMarks.h"
#include "tests/bench/fleet/WatchBurst.h"
#include "tests/bench/fleet/WriteEcho.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::bench {

// The scripted server in place of kube-apiserver for a generated fleet: its
// LIST pages, watches held open until a burst is wanted (or `stop` opens),
// the Pod bursts (ADDED, then DELETED), discovery, the controller's rule and
// DeviceHealth status writes echoed on their watches (`echo`, which also
// carries the bench's DeviceHealth flips), and other writes accepted.
// Requests no route answers are counted in `unmatched`.
class FleetReplay {
 public:
  // Null when the server does not start.
  static std::unique_ptr<FleetReplay> Start(const FleetSizes& s, const Fleet& fleet);

  std::unique_ptr<dra::testing::ScriptedHttpServer> server;
  dra::testing::Gate stop;
  StreamMarks marks;
  std::atomic<int> unmatched{0};
  WatchBurst pod_add{Fleet::kPods}, pod_delete{Fleet::kPods};
  std::unique_ptr<WriteEcho> echo;

 private:
  std::vector<WatchBurst*> Bursts() { return {&pod_add, &pod_delete}; }
  void AddBurstRoute(WatchBurst& burst, const std::string& name,
                     std::vector<dra::testing::StreamStep> events);
  std::vector<dra::testing::StreamStep> Hold(const std::string& path);
  // Writes what `feed` is given for 170 s, then ends (Stop() ends it sooner).
  static std::vector<dra::testing::StreamStep> Fed(std::shared_ptr<dra::testing::ChunkFeed> feed);
  void AddWatchRoutes(const FleetSizes& s, const Fleet& fleet);
};

}  // namespace dra::bench
