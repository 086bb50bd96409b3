#pragma once

#include <string>

#include "src/base/Status.h"

namespace kube {

// Something the Manager starts and stops: an informer set, a metrics
// collector, a reconciler's workers. Start() must not block; Stop() returns
// once the work in flight has finished (or was abandoned at the Manager's
// drain deadline, which the Manager enforces by stopping in order).
class Runnable {
 public:
  virtual ~Runnable() = default;
  virtual std::string name() const = 0;
  // Leader-only runnables (reconcilers that write) start when this replica
  // leads and caches have synced; the others start once caches have synced.
  virtual bool NeedsLeaderElection() const = 0;
  virtual Status Start() = 0;
  virtual void Stop() = 0;
};

}  // namespace kube
