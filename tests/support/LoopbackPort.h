#pragma once

namespace dra::testing {

// Ports on 127.0.0.1 for servers a test starts that cannot bind port 0 and
// report it (Prometheus, Alertmanager).
class LoopbackPort {
 public:
  // A port free at the moment of asking, or 0; another process may take it
  // before the server binds it, so callers retry their start.
  static int Free();
};

}  // namespace dra::testing
