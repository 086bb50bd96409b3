#pragma once

#include <vector>

#include "tests/bench/fleet/FleetSizes.h"
#include "tests/support/ScriptedHttpServer.h"

namespace dra::bench {

// The watch events of the bench's bursts.
class FleetStreams {
 public:
  // ADDED (or DELETED) for every burst Pod, 100 events a chunk, resource
  // versions from rv + 1.
  static std::vector<dra::testing::StreamStep> PodEvents(const FleetSizes& s, const char* type,
                                                         int rv);
};

}  // namespace dra::bench
