#pragma once

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "src/base/BackgroundThread.h"
#include "src/base/Clock.h"
#include "src/cache/EventHandler.h"
#include "src/cache/HandlerMetrics.h"
#include "src/cache/HandlerRegistration.h"
#include "src/cache/WatchDecoder.h"

namespace kube {

// Delivers one handler's notifications on its own thread, in the order they
// were pushed (client-go's processorListener). Push() never blocks: the
// buffer is unbounded but accounted (pending(), max_pending(), the queue
// depth gauge), so a slow handler delays only itself, never the reflector
// or the other handlers. A callback that throws is logged and counted, and
// delivery goes on with the next notification.
template <typename T>
class HandlerListener : public HandlerRegistration {
 public:
  using Ptr = std::shared_ptr<const T>;

  // `on_synced` runs on the delivery thread, with no lock held, once the
  // handler has been given everything pushed before MarkSyncPoint().
  HandlerListener(std::shared_ptr<EventHandler<T>> handler, HandlerMetrics metrics,
                  std::shared_ptr<Clock> clock, std::function<void()> on_synced)
      : handler_(std::move(handler)),
        metrics_(metrics),
        clock_(std::move(clock)),
        on_synced_(std::move(on_synced)) {}
  ~HandlerListener() override { Stop(); }
  HandlerListener(const HandlerListener&) = delete;
  HandlerListener& operator=(const HandlerListener&) = delete;

  void Start() {
    thread_.Start([this] { Run(); });
  }

  // Discards what is still queued; joins unless called by the handler itself.
  void Stop() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.Stop();
    std::lock_guard lock(mu_);
    for (size_t i = 0; i < buffer_.size(); ++i) metrics_.Delivered();
    dropped_ += buffer_.size();
    buffer_.clear();
  }

  void Push(WatchEventType type, Ptr old_object, Ptr new_object) {
    bool was_empty;
    {
      std::lock_guard lock(mu_);
      was_empty = buffer_.empty();
      buffer_.push_back({type, std::move(old_object), std::move(new_object)});
      ++pushed_;
      max_pending_ = std::max(max_pending_, PendingLocked());
      metrics_.Queued();  // under the lock, so the gauge agrees with pending()
    }
    // The delivery thread waits only on an empty buffer; waking it per event
    // cost a context switch per event and handler during a 30,000-item sync.
    if (was_empty) cv_.notify_one();
  }

  // The handler counts as synced once everything pushed so far is delivered.
  // Only the first call counts.
  void MarkSyncPoint() {
    {
      std::lock_guard lock(mu_);
      if (sync_target_) return;
      sync_target_ = pushed_;
      if (delivered_ < pushed_) return;
      synced_ = true;
    }
    on_synced_();
  }

  bool HasSynced() const override { return synced_; }
  size_t pending() const override {
    std::lock_guard lock(mu_);
    return PendingLocked();
  }
  size_t max_pending() const override {
    std::lock_guard lock(mu_);
    return max_pending_;
  }
  uint64_t errors() const override { return errors_; }

  // How long the callback in progress has been running; zero when idle.
  Clock::Duration busy_for() const {
    if (!busy_) return Clock::Duration::zero();
    return clock_->Now() - Clock::TimePoint(Clock::Duration(busy_since_.load()));
  }

 private:
  struct Notification {
    WatchEventType type;
    Ptr old_object;
    Ptr new_object;
  };

  // Takes everything queued at once and delivers it, so a burst costs one
  // wake-up rather than one per event.
  void Run() {
    std::deque<Notification> batch;
    while (true) {
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !buffer_.empty(); });
        if (stopping_) return;
        batch.swap(buffer_);
      }
      while (!batch.empty()) {
        Notification next = std::move(batch.front());
        batch.pop_front();
        busy_since_ = clock_->Now().time_since_epoch().count();
        busy_ = true;
        Deliver(next);
        busy_ = false;
        auto counted = CountDelivered(batch);
        if (counted == Counted::kSynced) on_synced_();
        if (counted == Counted::kStopping) return;
      }
    }
  }

  size_t PendingLocked() const { return pushed_ - delivered_ - dropped_; }

  enum class Counted { kDelivered, kSynced, kStopping };
  // kSynced when this delivery completed the handler's initial contents;
  // kStopping when Stop() came meanwhile: the rest of `batch` is dropped, as
  // what is still queued is.
  Counted CountDelivered(std::deque<Notification>& batch) {
    std::lock_guard lock(mu_);
    ++delivered_;
    metrics_.Delivered();  // under the lock, so the gauge agrees with pending()
    if (stopping_) {
      for (size_t i = 0; i < batch.size(); ++i) metrics_.Delivered();
      dropped_ += batch.size();
      batch.clear();
      return Counted::kStopping;
    }
    if (synced_ || !sync_target_ || delivered_ < *sync_target_) return Counted::kDelivered;
    synced_ = true;
    return Counted::kSynced;
  }

  void Deliver(const Notification& n) {
    try {
      if (n.type == WatchEventType::kAdded) handler_->OnAdd(n.new_object);
      if (n.type == WatchEventType::kModified) handler_->OnUpdate(n.old_object, n.new_object);
      if (n.type == WatchEventType::kDeleted) handler_->OnDelete(n.old_object);
      return;
    } catch (const std::exception& e) {
      spdlog::error("event handler threw: {}", e.what());
    } catch (...) {
      spdlog::error("event handler threw an unknown exception");
    }
    ++errors_;
    metrics_.CountError();
  }

  std::shared_ptr<EventHandler<T>> handler_;
  HandlerMetrics metrics_;
  std::shared_ptr<Clock> clock_;
  std::function<void()> on_synced_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Notification> buffer_;
  bool stopping_ = false;
  uint64_t pushed_ = 0;
  uint64_t delivered_ = 0;
  uint64_t dropped_ = 0;  // queued when Stop() came
  size_t max_pending_ = 0;
  std::optional<uint64_t> sync_target_;
  std::atomic<bool> synced_{false};
  std::atomic<uint64_t> errors_{0};
  std::atomic<bool> busy_{false};
  std::atomic<Clock::Duration::rep> busy_since_{0};
  BackgroundThread thread_;  // last: stopped before the state above goes
};

}  // namespace kube
