#pragma once

#include <string>

namespace kube {

// What a WorkQueue reports as keys move through it. The queue makes every call
// while holding its own lock, so calls never overlap and implementations need
// no locking of their own (but must not call back into the queue).
class WorkQueueMetrics {
 public:
  virtual ~WorkQueueMetrics() = default;

  // `key` became pending; not called when an add is deduplicated.
  virtual void OnAdd(const std::string& key) = 0;
  // `key` was handed to a worker.
  virtual void OnGet(const std::string& key) = 0;
  // A worker finished `key`.
  virtual void OnDone(const std::string& key) = 0;
  // A delayed or rate-limited add was requested.
  virtual void OnRetry() = 0;
  // Called periodically so that long-running work shows up before it ends.
  virtual void UpdateUnfinishedWork() = 0;
};

}  // namespace kube
