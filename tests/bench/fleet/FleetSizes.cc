#include "tests/bench/fleet/FleetSizes.h"

#include <cstdlib>

namespace dra::bench {

FleetSizes FleetSizes::Empty() {
  FleetSizes s;
  s.nodes = s.gpu_pods = s.plain_pods = s.healths = s.burst_pods = 0;
  return s;
}

int FleetSizes::EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atoi(value) : fallback;
}

}  // namespace dra::bench
