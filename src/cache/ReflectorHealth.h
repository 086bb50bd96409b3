#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "src/base/Clock.h"
#include "src/base/Status.h"

namespace kube {

// What a Reflector's liveness, freshness and readiness are judged by: when
// its loop last showed progress (heartbeat), when its cache was last known to
// follow the server (last success), and whether its open watch delivers
// complete events. The loop records; probes read from any thread.
class ReflectorHealth {
 public:
  // `stall_timeout`: the longest the loop may go without a heartbeat while
  // working. `watch_ready_timeout`: the longest an open watch may go without
  // a complete event before readiness fails.
  ReflectorHealth(std::shared_ptr<Clock> clock, std::string resource, Clock::Duration stall_timeout,
                  std::chrono::milliseconds watch_ready_timeout);

  // The loop starts (counts as a success) or stops; probes pass while stopped.
  void Started();
  void Stopped();
  void Beat();
  void Succeeded();
  void WatchOpened();
  void WatchClosed();
  // A complete event or bookmark arrived on the open watch, at the last beat.
  void EventArrived();

  Clock::TimePoint heartbeat() const;
  Clock::TimePoint last_success() const;
  Clock::Duration stall_timeout() const { return stall_timeout_; }
  // Unavailable when the loop showed no progress for longer than stall_timeout().
  Status CheckProgress() const;
  // Unavailable when nothing succeeded for longer than `max_staleness`.
  Status CheckFreshness(Clock::Duration max_staleness) const;
  // Unavailable while a watch is open that delivered no complete event for
  // longer than watch_ready_timeout.
  Status CheckWatchProgress() const;

 private:
  Clock::Duration::rep Now() const;

  std::shared_ptr<Clock> clock_;
  std::string resource_;
  Clock::Duration stall_timeout_;
  std::chrono::milliseconds watch_ready_timeout_;
  std::atomic<bool> running_{false};
  // Clock::TimePoint::time_since_epoch().count(); 0 until Started().
  std::atomic<Clock::Duration::rep> heartbeat_{0};
  std::atomic<Clock::Duration::rep> last_success_{0};
  // Whether a watch is open, when it began and when it last delivered a
  // complete event.
  std::atomic<bool> watching_{false};
  std::atomic<Clock::Duration::rep> stream_began_{0};
  std::atomic<Clock::Duration::rep> last_event_{0};
};

}  // namespace kube
