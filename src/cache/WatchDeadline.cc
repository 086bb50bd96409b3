#include "src/cache/WatchDeadline.h"

#include <algorithm>

namespace kube {

WatchDeadline::WatchDeadline(std::chrono::milliseconds progress_timeout,
                             std::chrono::milliseconds overall, CancelFlag& stream)
    : progress_timeout_(progress_timeout),
      ends_(SteadyClock::now() + overall),
      stream_(stream),
      last_progress_(SteadyClock::now().time_since_epoch().count()),
      thread_([this] { Run(); }) {}

WatchDeadline::~WatchDeadline() {
  {
    std::lock_guard lock(mu_);
    armed_ = false;
  }
  changed_.notify_all();
  thread_.join();
}

void WatchDeadline::Progress() { last_progress_ = SteadyClock::now().time_since_epoch().count(); }

WatchDeadline::Cut WatchDeadline::cut() const {
  std::lock_guard lock(mu_);
  return cut_;
}

// Progress() only stores a time: the thread wakes at the deadline the last
// time it knew of and, when progress came meanwhile, sleeps on to the new one.
void WatchDeadline::Run() {
  std::unique_lock lock(mu_);
  while (armed_) {
    auto stalls_at =
        SteadyClock::time_point(SteadyClock::duration(last_progress_.load())) + progress_timeout_;
    auto now = SteadyClock::now();
    if (now >= stalls_at || now >= ends_) {
      cut_ = now >= stalls_at ? Cut::kNoProgress : Cut::kOverran;
      armed_ = false;
      lock.unlock();
      stream_.Cancel();
      return;
    }
    changed_.wait_until(lock, std::min(stalls_at, ends_));
  }
}

}  // namespace kube
