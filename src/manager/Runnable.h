#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/base/Status.h"
#include "src/cache/InformerDependency.h"

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
  // leads and the caches they wait for have synced; the others start once
  // the caches they wait for have synced.
  virtual bool NeedsLeaderElection() const = 0;
  // The informers whose caches must have synced before Start(). nullopt (the
  // default, for runnables that do not say): every informer the Manager has
  // once the wiring is done. An empty list: none.
  virtual std::optional<std::vector<InformerDependency>> WaitsFor() const { return std::nullopt; }
  virtual Status Start() = 0;
  virtual void Stop() = 0;
};

}  // namespace kube
