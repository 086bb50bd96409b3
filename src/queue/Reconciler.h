#pragma once

#include <string>
#include <utility>

#include "src/base/Clock.h"
#include "src/base/Status.h"

namespace kube {

// What a reconcile asks the controller loop to do with its key next.
struct ReconcileResult {
  enum class Kind {
    kDone,          // converged: forget the key's failures
    kRequeue,       // try again after a rate-limited delay
    kRequeueAfter,  // try again after `requeue_after`, failures forgotten
    kError,         // failed with `error`: rate-limited retry, counted as an error
  };

  static ReconcileResult Done() { return ReconcileResult{}; }
  static ReconcileResult Requeue() { return ReconcileResult{Kind::kRequeue, {}, {}}; }
  static ReconcileResult RequeueAfter(Clock::Duration delay) {
    return ReconcileResult{Kind::kRequeueAfter, delay, {}};
  }
  static ReconcileResult Error(Status error) {
    return ReconcileResult{Kind::kError, {}, std::move(error)};
  }

  Kind kind = Kind::kDone;
  Clock::Duration requeue_after{};
  Status error;
};

// Brings the world in line with the desired state of one object, named by
// its queue key. Called from several worker threads, but never concurrently
// for the same key.
class Reconciler {
 public:
  virtual ~Reconciler() = default;
  virtual ReconcileResult Reconcile(const std::string& key) = 0;
};

}  // namespace kube
