#pragma once

#include <prometheus/registry.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/base/Clock.h"
#include "src/cache/Informer.h"
#include "src/manager/EnqueueHandler.h"
#include "src/manager/Runnable.h"
#include "src/queue/ControllerLoop.h"
#include "src/queue/Reconciler.h"
#include "src/queue/WorkQueue.h"

namespace kube {

struct ManagedControllerOptions {
  std::string name;  // the `name`/`controller` label of its workqueue_* and reconcile metrics
  int workers = 1;
  bool leader_only = true;  // false for reconcilers that only read and report
  // The informers whose caches must have synced before the workers start
  // (Runnable::WaitsFor). nullopt: every informer. Once set (even empty),
  // each informer given to Watch() is added, as controller-runtime waits for
  // a controller's sources; list here what the reconciler reads without
  // watching.
  std::optional<std::vector<InformerDependency>> waits_for = std::nullopt;
};

// One reconciler as the Manager runs it: a work queue with the standard
// workqueue_* metrics, the informers it watches (events become keys through
// EnqueueHandler) and a ControllerLoop with controller_runtime_reconcile_*
// metrics. Keys queue up from the first event; workers start with Start().
class ManagedController : public Runnable {
 public:
  static Result<std::unique_ptr<ManagedController>> Create(
      ManagedControllerOptions options, std::shared_ptr<Reconciler> reconciler,
      std::shared_ptr<prometheus::Registry> registry, std::shared_ptr<Clock> clock);

  // Reconciles the keys `keys` maps each event of `informer` to.
  template <typename T>
  void Watch(Informer<T>& informer, typename EnqueueHandler<T>::KeyFunc keys) {
    informer.AddHandler(std::make_shared<EnqueueHandler<T>>(queue_, std::move(keys)));
    AddDependency(InformerDependency::On(informer));
  }

  // The object's own "namespace/name" (or "name") key.
  template <typename T>
  static std::vector<std::string> OwnKey(const T& object) {
    return {object.meta.Key()};
  }

  WorkQueue& queue() { return *queue_; }

  std::string name() const override { return options_.name; }
  bool NeedsLeaderElection() const override { return options_.leader_only; }
  std::optional<std::vector<InformerDependency>> WaitsFor() const override {
    return options_.waits_for;
  }
  Status Start() override;
  void Stop() override;

 private:
  ManagedController(ManagedControllerOptions options, std::shared_ptr<WorkQueue> queue,
                    std::unique_ptr<ControllerLoop> loop);
  // Called from Watch(), i.e. while wiring, before the Manager reads it.
  void AddDependency(InformerDependency dependency);

  ManagedControllerOptions options_;
  std::shared_ptr<WorkQueue> queue_;
  std::unique_ptr<ControllerLoop> loop_;
};

}  // namespace kube
