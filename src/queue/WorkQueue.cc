#include "src/queue/WorkQueue.h"

#include "src/base/RealClock.h"
#include "src/queue/DefaultControllerRateLimiter.h"

namespace kube {
namespace {

constexpr Clock::Duration kDefaultUnfinishedWorkUpdatePeriod = std::chrono::milliseconds(500);

std::shared_ptr<Clock> ClockOrReal(std::shared_ptr<Clock> clock) {
  return clock ? std::move(clock) : RealClock::Shared();
}

// A non-positive period would make the background thread spin.
Clock::Duration PositiveOrDefault(Clock::Duration period) {
  return period > Clock::Duration::zero() ? period : kDefaultUnfinishedWorkUpdatePeriod;
}

// Huge delays (a limiter's "never", an absurd RequeueAfter) saturate instead
// of overflowing into the past.
Clock::TimePoint SaturatingAdd(Clock::TimePoint start, Clock::Duration delay) {
  if (start.time_since_epoch() > Clock::Duration::zero() && delay > Clock::kNever - start) {
    return Clock::kNever;
  }
  return start + delay;
}

}  // namespace

WorkQueue::WorkQueue(Options options)
    : clock_(ClockOrReal(std::move(options.clock))),
      rate_limiter_(options.rate_limiter ? std::move(options.rate_limiter)
                                         : DefaultControllerRateLimiter(clock_)),
      metrics_(std::move(options.metrics)),
      unfinished_work_update_period_(PositiveOrDefault(options.unfinished_work_update_period)),
      next_metrics_update_(clock_->Now() + unfinished_work_update_period_) {
  background_ = std::thread([this] { BackgroundLoop(); });
}

WorkQueue::~WorkQueue() { ShutDown(); }

void WorkQueue::Add(const std::string& key) {
  std::lock_guard<std::mutex> guard(mutex_);
  if (shutting_down_) return;
  AddLocked(key);
}

void WorkQueue::AddLocked(const std::string& key) {
  if (!dirty_.insert(key).second) return;
  if (metrics_) metrics_->OnAdd(key);
  // An in-flight key goes back into the queue when its worker calls Done().
  if (in_flight_.contains(key)) return;
  ready_.push_back(key);
  key_ready_.notify_one();
}

void WorkQueue::AddAfter(const std::string& key, Clock::Duration delay) {
  std::lock_guard<std::mutex> guard(mutex_);
  if (shutting_down_) return;
  if (metrics_) metrics_->OnRetry();
  if (delay <= Clock::Duration::zero()) {
    AddLocked(key);
  } else {
    AddDelayedLocked(key, SaturatingAdd(clock_->Now(), delay));
  }
}

void WorkQueue::AddDelayedLocked(const std::string& key, Clock::TimePoint ready_at) {
  auto known = delay_of_.find(key);
  if (known != delay_of_.end()) {
    if (known->second.first <= ready_at) return;
    delayed_.erase(known->second);
    delay_of_.erase(known);
  }
  const DelayOrder order{ready_at, delay_sequence_++};
  delayed_.emplace(order, key);
  delay_of_.emplace(key, order);
  if (delayed_.begin()->first == order) background_wake_.notify_one();
}

void WorkQueue::AddRateLimited(const std::string& key) {
  if (ShuttingDown()) return;
  AddAfter(key, rate_limiter_->When(key));
}

void WorkQueue::Forget(const std::string& key) { rate_limiter_->Forget(key); }

int WorkQueue::NumRequeues(const std::string& key) const { return rate_limiter_->NumRequeues(key); }

std::optional<std::string> WorkQueue::Get() {
  std::unique_lock<std::mutex> lock(mutex_);
  key_ready_.wait(lock, [this] { return shutting_down_ || !ready_.empty(); });
  if (shutting_down_) return std::nullopt;
  std::string key = std::move(ready_.front());
  ready_.pop_front();
  dirty_.erase(key);
  in_flight_.insert(key);
  if (metrics_) metrics_->OnGet(key);
  return key;
}

void WorkQueue::Done(const std::string& key) {
  std::lock_guard<std::mutex> guard(mutex_);
  if (in_flight_.erase(key) == 0) return;
  if (metrics_) metrics_->OnDone(key);
  if (dirty_.contains(key) && !shutting_down_) {
    ready_.push_back(key);
    key_ready_.notify_one();
  }
  if (in_flight_.empty()) in_flight_done_.notify_all();
}

std::size_t WorkQueue::Len() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return ready_.size();
}

std::size_t WorkQueue::NumDelayed() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return delayed_.size();
}

bool WorkQueue::ShuttingDown() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return shutting_down_;
}

void WorkQueue::ShutDown() {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    BeginShutdownLocked(/*drain=*/false);
  }
  StopBackgroundThread();
}

void WorkQueue::ShutDownWithDrain() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    BeginShutdownLocked(/*drain=*/true);
    in_flight_done_.wait(lock, [this] { return in_flight_.empty() || !draining_; });
  }
  StopBackgroundThread();
}

void WorkQueue::BeginShutdownLocked(bool drain) {
  shutting_down_ = true;
  draining_ = drain;
  ready_.clear();
  delayed_.clear();
  delay_of_.clear();
  key_ready_.notify_all();
  background_wake_.notify_all();
  in_flight_done_.notify_all();
}

void WorkQueue::StopBackgroundThread() {
  std::lock_guard<std::mutex> guard(join_mutex_);
  if (background_.joinable()) background_.join();
}

void WorkQueue::BackgroundLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!shutting_down_) {
    const Clock::TimePoint now = clock_->Now();
    MoveReadyDelayedLocked(now);
    if (metrics_ && now >= next_metrics_update_) {
      metrics_->UpdateUnfinishedWork();
      next_metrics_update_ = now + unfinished_work_update_period_;
    }
    clock_->WaitUntil(lock, background_wake_, NextWakeupLocked());
  }
}

void WorkQueue::MoveReadyDelayedLocked(Clock::TimePoint now) {
  while (!delayed_.empty() && delayed_.begin()->first.first <= now) {
    auto first = delayed_.begin();
    delay_of_.erase(first->second);
    AddLocked(first->second);
    delayed_.erase(first);
  }
}

Clock::TimePoint WorkQueue::NextWakeupLocked() const {
  Clock::TimePoint next = metrics_ ? next_metrics_update_ : Clock::kNever;
  if (!delayed_.empty()) next = std::min(next, delayed_.begin()->first.first);
  return next;
}

}  // namespace kube
