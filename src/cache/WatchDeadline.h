#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "src/http/HttpTransport.h"

namespace kube {

// Cuts one watch stream that no longer makes progress, whatever bytes it
// still delivers: no complete event (or bookmark) for `progress_timeout`, or
// still open `overall` after it began (the server should have ended it at
// its own timeoutSeconds). The transport's idle timeout counts bytes, so a
// stream trickling a byte a second would otherwise stay open for ever while
// the cache falls behind. Real time, on its own thread; the destructor
// disarms and joins it.
class WatchDeadline {
 public:
  enum class Cut : uint8_t { kNone, kNoProgress, kOverran };

  WatchDeadline(std::chrono::milliseconds progress_timeout, std::chrono::milliseconds overall,
                CancelFlag& stream);
  ~WatchDeadline();
  WatchDeadline(const WatchDeadline&) = delete;
  WatchDeadline& operator=(const WatchDeadline&) = delete;

  // A complete event arrived: the progress timeout starts again.
  void Progress();
  // Why the stream was cut; kNone while it was not.
  Cut cut() const;

 private:
  using SteadyClock = std::chrono::steady_clock;

  void Run();

  const std::chrono::milliseconds progress_timeout_;
  const SteadyClock::time_point ends_;
  CancelFlag& stream_;
  std::atomic<SteadyClock::rep> last_progress_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  bool armed_ = true;
  Cut cut_ = Cut::kNone;
  std::thread thread_;  // last: started once the state above exists
};

}  // namespace kube
