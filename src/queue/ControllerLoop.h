#pragma once

#include <prometheus/registry.h>

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "src/base/Result.h"
#include "src/queue/ControllerMetrics.h"
#include "src/queue/Reconciler.h"
#include "src/queue/WorkQueue.h"

namespace kube {

// Runs worker threads that take keys from a WorkQueue and reconcile them, the
// way controller-runtime does:
//   Done          -> Forget(key)
//   Requeue       -> AddRateLimited(key)
//   RequeueAfter  -> Forget(key), AddAfter(key, delay)
//   Error         -> AddRateLimited(key), logged and counted as an error
// An exception escaping Reconcile is logged and handled like an Error, so a
// failing key backs off instead of crashing or spinning.
class ControllerLoop {
 public:
  struct Options {
    std::string name = "";  // the `controller` metrics label and log field
    int workers = 1;
    std::shared_ptr<prometheus::Registry> registry = nullptr;  // null: no metrics
  };

  static Result<std::unique_ptr<ControllerLoop>> Create(Options options,
                                                        std::shared_ptr<WorkQueue> queue,
                                                        std::shared_ptr<Reconciler> reconciler);
  // Stops if still running.
  ~ControllerLoop();

  ControllerLoop(const ControllerLoop&) = delete;
  ControllerLoop& operator=(const ControllerLoop&) = delete;

  // Starts the workers; fails if called twice.
  Status Start();
  // Shuts the queue down, waits for the reconciles in flight to finish and
  // joins the workers. Idempotent; never call it from inside Reconcile.
  void Stop();

 private:
  enum class State { kNew, kRunning, kStopped };

  ControllerLoop(Options options, std::shared_ptr<WorkQueue> queue,
                 std::shared_ptr<Reconciler> reconciler,
                 std::unique_ptr<ControllerMetrics> metrics);
  void RunWorker();
  void Process(const std::string& key);
  // Calls the reconciler; an exception becomes an Error result and sets `threw`.
  ReconcileResult ReconcileGuarded(const std::string& key, bool& threw);
  ControllerMetrics::Outcome ApplyResult(const std::string& key, const ReconcileResult& result);

  const Options options_;
  const std::shared_ptr<WorkQueue> queue_;
  const std::shared_ptr<Reconciler> reconciler_;
  const std::unique_ptr<ControllerMetrics> metrics_;  // may be null

  std::mutex lifecycle_mutex_;
  State state_ = State::kNew;
  std::vector<std::thread> workers_;
};

}  // namespace kube
