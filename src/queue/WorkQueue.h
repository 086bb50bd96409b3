#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "src/base/Clock.h"
#include "src/queue/RateLimiter.h"
#include "src/queue/WorkQueueMetrics.h"

namespace kube {

// A rate-limited work queue of string keys with client-go's guarantees:
//  - a key is pending at most once, however often it is added;
//  - a key is never handed to two workers at once: adding a key that is being
//    processed marks it dirty, and Done() queues it again;
//  - delayed adds wait on the queue's clock; when a key is delayed twice the
//    earlier deadline wins.
// Workers loop on Get() / Done(). All methods are thread-safe. One internal
// thread moves delayed keys into the queue and refreshes the unfinished-work
// metrics; it stops on shutdown.
class WorkQueue {
 public:
  struct Options {
    // Time source for delays and metrics; null means RealClock.
    std::shared_ptr<Clock> clock = nullptr;
    // Used by AddRateLimited(); null means DefaultControllerRateLimiter(clock).
    std::unique_ptr<RateLimiter> rate_limiter = nullptr;
    // Null means no metrics (see PrometheusWorkQueueMetrics).
    std::unique_ptr<WorkQueueMetrics> metrics = nullptr;
    // How often workqueue_unfinished_work_seconds is refreshed (> 0).
    Clock::Duration unfinished_work_update_period = std::chrono::milliseconds(500);
  };

  explicit WorkQueue(Options options);
  // Shuts down (without draining) and stops the internal thread.
  ~WorkQueue();

  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Marks `key` as needing processing. Ignored after shutdown.
  void Add(const std::string& key);
  // Adds `key` once `delay` has passed (at once if delay <= 0). Counts as a
  // retry in the metrics. Ignored after shutdown.
  void AddAfter(const std::string& key, Clock::Duration delay);
  // Adds `key` after the delay the rate limiter chooses for it.
  void AddRateLimited(const std::string& key);
  // Resets the rate limiter's memory of `key`; call when it succeeded.
  void Forget(const std::string& key);
  int NumRequeues(const std::string& key) const;

  // Blocks until a key is ready and hands it to the caller, who must call
  // Done(key) afterwards. Returns nullopt once the queue is shut down, even if
  // keys are still pending.
  std::optional<std::string> Get();
  void Done(const std::string& key);

  // Keys ready to be handed out (excludes delayed and in-flight keys).
  std::size_t Len() const;
  // Keys waiting for their delay to pass.
  std::size_t NumDelayed() const;
  bool ShuttingDown() const;

  // Stops at once: new adds are ignored, pending and delayed keys dropped,
  // and Get() returns nullopt. Keys in flight may still call Done(). Also ends
  // a concurrent ShutDownWithDrain() wait.
  void ShutDown();
  // Like ShutDown(), but then blocks until every key in flight is Done().
  // Never call it from a worker that holds a key.
  void ShutDownWithDrain();

 private:
  using DelayOrder = std::pair<Clock::TimePoint, std::uint64_t>;  // deadline, then FIFO

  void AddLocked(const std::string& key);
  void AddDelayedLocked(const std::string& key, Clock::TimePoint ready_at);
  void MoveReadyDelayedLocked(Clock::TimePoint now);
  void BeginShutdownLocked(bool drain);
  void StopBackgroundThread();
  void BackgroundLoop();
  Clock::TimePoint NextWakeupLocked() const;

  const std::shared_ptr<Clock> clock_;
  const std::unique_ptr<RateLimiter> rate_limiter_;
  const std::unique_ptr<WorkQueueMetrics> metrics_;
  const Clock::Duration unfinished_work_update_period_;

  mutable std::mutex mutex_;
  std::condition_variable key_ready_;        // Get() waiters
  std::condition_variable background_wake_;  // background thread
  std::condition_variable in_flight_done_;   // ShutDownWithDrain() waiter

  std::deque<std::string> ready_;              // every key here is in dirty_
  std::unordered_set<std::string> dirty_;      // needs processing
  std::unordered_set<std::string> in_flight_;  // handed out, not yet Done()
  std::map<DelayOrder, std::string> delayed_;
  std::unordered_map<std::string, DelayOrder> delay_of_;
  std::uint64_t delay_sequence_ = 0;
  Clock::TimePoint next_metrics_update_;
  bool shutting_down_ = false;
  bool draining_ = false;

  std::mutex join_mutex_;  // lets concurrent shutdowns join the thread once
  std::thread background_;
};

}  // namespace kube
