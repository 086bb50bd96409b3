#include "src/base/FakeClock.h"

#include <algorithm>

namespace kube {

// Lock order: step_mutex_ -> mutex_, and step_mutex_ -> a waiter's mutex.
// A waiter takes mutex_ while holding its own mutex, but only takes
// step_mutex_ after releasing it, so no cycle is possible.

FakeClock::FakeClock(TimePoint start, std::chrono::system_clock::time_point wall_start)
    : now_(start), start_(start), wall_start_(wall_start) {}

Clock::TimePoint FakeClock::Now() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return now_;
}

std::chrono::system_clock::time_point FakeClock::WallNow() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return wall_start_ +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(now_ - start_);
}

void FakeClock::WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                          TimePoint deadline) {
  const Waiter self{lock.mutex(), &cv};
  {
    std::lock_guard<std::mutex> guard(mutex_);
    ++waits_;
    if (now_ >= deadline) return;
    waiters_.push_back(&self);
  }
  // `lock` is held from the deadline check until cv.wait() releases it, and
  // Step() takes that same mutex before notifying: a Step() cannot slip in
  // between the check and the wait and be missed.
  cv.wait(lock);
  lock.unlock();
  Unregister(&self);
  lock.lock();
}

void FakeClock::Unregister(const Waiter* waiter) {
  std::lock_guard<std::mutex> step_guard(step_mutex_);
  std::lock_guard<std::mutex> guard(mutex_);
  waiters_.erase(std::find(waiters_.begin(), waiters_.end(), waiter));
}

void FakeClock::Step(Duration delta) {
  std::lock_guard<std::mutex> step_guard(step_mutex_);
  std::vector<const Waiter*> to_wake;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    now_ += std::max(delta, Duration::zero());
    to_wake = waiters_;
  }
  for (const Waiter* waiter : to_wake) {
    std::lock_guard<std::mutex> guard(*waiter->mutex);
    waiter->cv->notify_all();
  }
}

std::size_t FakeClock::NumWaiters() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return waiters_.size();
}

int FakeClock::Waits() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return waits_;
}

}  // namespace kube
