#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "src/base/Clock.h"

namespace kube {

// The one lifecycle of the runtime's long-running loops (reflectors, the
// leader elector, the connect loop, the event writer): a std::jthread whose
// body sleeps through SleepFor()/SleepUntil() on an injected Clock, so a stop
// request wakes it at once and fault tests can run on a FakeClock.
// Start() once; Stop() requests the stop and joins (idempotent; never call it
// from the body itself).
class BackgroundThread {
 public:
  explicit BackgroundThread(std::shared_ptr<Clock> clock = nullptr);
  ~BackgroundThread();
  BackgroundThread(const BackgroundThread&) = delete;
  BackgroundThread& operator=(const BackgroundThread&) = delete;

  // Runs `body` on a new thread; false if already started or stopped.
  bool Start(std::function<void()> body);
  // Asks the body to finish without waiting for it.
  void RequestStop();
  // RequestStop(), then waits for the body to return.
  void Stop();

  bool stopping() const;
  bool running() const { return thread_.joinable(); }

  // Sleeps on the clock; false (at once) when a stop was requested.
  bool SleepFor(Clock::Duration delay);
  bool SleepUntil(Clock::TimePoint deadline);

  Clock& clock() const { return *clock_; }
  const std::shared_ptr<Clock>& shared_clock() const { return clock_; }

 private:
  std::shared_ptr<Clock> clock_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::jthread thread_;
};

}  // namespace kube
