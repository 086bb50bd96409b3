#pragma once

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/base/Clock.h"
#include "src/base/RealClock.h"
#include "src/base/Result.h"
#include "src/cache/EventHandler.h"
#include "src/cache/HandlerListener.h"
#include "src/cache/HandlerMetrics.h"
#include "src/cache/HandlerRegistration.h"
#include "src/cache/KeyedSet.h"
#include "src/cache/ObjectDecoder.h"
#include "src/cache/ObjectMeta.h"
#include "src/cache/ReflectorSink.h"
#include "src/cache/Store.h"

namespace kube {

// The writing side of an informer: projects what its reflector reads into
// typed objects, keeps a Store equal to them, and tells event handlers what
// changed, in order. T must have a public `ObjectMeta meta`. The store is
// updated before handlers are told; each handler has its own HandlerListener
// (buffer and thread), so handlers never run on the reflector's thread or
// under a lock of the sink: a slow handler delays only itself, and a handler
// may read the store or add another handler from its callbacks.
//
// Synced means the first full list is in the store *and* every handler has
// been given its initial contents, so a caller of WaitForSync() can rely on
// what its handlers built from them.
//
// With a `keep` predicate, objects it refuses are not cached and handlers
// never hear of them (no server-side selector can express most such
// interests); an object that stops being kept reads as deleted.
template <typename T>
class StoreSink : public ReflectorSink {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Transform = ObjectDecoder<T>;
  using Keep = std::function<bool(const T&)>;

  // `clock` (null: the real clock) times callbacks for CheckHandlers();
  // `keep` (null: everything) says which projected objects are cached.
  StoreSink(Store<T>& store, Transform transform, HandlerMetrics metrics = {},
            std::shared_ptr<Clock> clock = nullptr, Keep keep = nullptr)
      : store_(store),
        transform_(std::move(transform)),
        keep_(std::move(keep)),
        metrics_(metrics),
        clock_(clock ? std::move(clock) : RealClock::Shared()) {}
  ~StoreSink() override { Stop(); }
  StoreSink(const StoreSink&) = delete;
  StoreSink& operator=(const StoreSink&) = delete;

  // A handler added after the first sync first receives an add per cached
  // object. Starts delivering at once unless the sink was stopped.
  std::shared_ptr<HandlerRegistration> AddHandler(std::shared_ptr<EventHandler<T>> handler) {
    auto listener = std::make_shared<HandlerListener<T>>(std::move(handler), metrics_, clock_,
                                                         [this] { NotifySyncWaiters(); });
    std::lock_guard dispatch(dispatch_mu_);
    if (store_synced_) {
      for (const auto& object : store_.List()) listener->Push(WatchEventType::kAdded, {}, object);
      listener->MarkSyncPoint();
    }
    {
      std::lock_guard lock(listeners_mu_);
      listeners_.push_back(listener);
    }
    if (!stopped_) listener->Start();
    return listener;
  }

  // Stops every handler's delivery (joining their threads, except the
  // caller's own); what was still queued is dropped.
  void Stop() {
    {
      std::lock_guard dispatch(dispatch_mu_);
      stopped_ = true;
    }
    for (const auto& listener : Listeners()) listener->Stop();
  }

  bool HasSynced() const {
    if (!store_synced_) return false;
    for (const auto& listener : Listeners()) {
      if (!listener->HasSynced()) return false;
    }
    return true;
  }

  // Unavailable when a handler has been inside one callback for longer than
  // `limit` (it is wedged: its events pile up); for a liveness check.
  Status CheckHandlers(Clock::Duration limit, const std::string& resource) const {
    for (const auto& listener : Listeners()) {
      auto busy = listener->busy_for();
      if (busy <= limit) continue;
      auto seconds = [](Clock::Duration d) {
        return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count());
      };
      return Status(StatusCode::kUnavailable,
                    resource + ": an event handler has been in one callback for " + seconds(busy) +
                        " s (limit " + seconds(limit) + " s), " +
                        std::to_string(listener->pending()) + " events waiting");
    }
    return Status::Ok();
  }

  bool WaitForSync(std::chrono::milliseconds timeout) {
    std::unique_lock lock(sync_mu_);
    return sync_cv_.wait_for(lock, timeout, [this] { return HasSynced(); });
  }

  void BeginReplace() override { pending_.clear(); }

  bool AcceptsProtobuf() const override { return transform_.has_protobuf(); }

  Status ReplaceItem(const RawObject& object) override {
    auto projected = Project(object);
    if (!projected.ok()) return projected.status();
    if (!Kept(**projected)) return Status::Ok();
    pending_.Put(std::move(*projected));
    return Status::Ok();
  }

  void EndReplace(const std::string& /*resource_version*/) override {
    std::lock_guard dispatch(dispatch_mu_);
    if (store_.AdoptIfEmpty(pending_)) {
      for (const auto& object : store_.List()) Dispatch(WatchEventType::kAdded, nullptr, object);
    } else {
      MergeReplace();
    }
    pending_.clear();
    if (!store_synced_) {
      store_synced_ = true;
      for (const auto& listener : Listeners()) listener->MarkSyncPoint();
      NotifySyncWaiters();
    }
  }

  void ForgetItem(const std::string& key) override { pending_.Erase(key); }

  void AbortReplace() override { pending_.clear(); }

  Status Apply(WatchEventType type, const RawObject& object) override {
    auto projected = Project(object);
    if (!projected.ok()) {
      // The metadata usually still reads; without it there is no key to drop.
      auto meta = ObjectMeta::FromRaw(object);
      if (meta.ok()) Remove(meta->Key());
      return projected.status();
    }
    std::string key = (*projected)->meta.Key();
    if (!Kept(**projected)) {
      Remove(key);
      return Status::Ok();
    }
    std::lock_guard dispatch(dispatch_mu_);
    if (type == WatchEventType::kDeleted) {
      Ptr old = store_.Erase(key);
      Dispatch(type, old ? old : *projected, nullptr);
      return Status::Ok();
    }
    Ptr old = store_.Upsert(*projected);
    Dispatch(old ? WatchEventType::kModified : WatchEventType::kAdded, old, *projected);
    return Status::Ok();
  }

  void Remove(const std::string& key) override {
    std::lock_guard dispatch(dispatch_mu_);
    Ptr old = store_.Erase(key);
    if (old) Dispatch(WatchEventType::kDeleted, old, nullptr);
  }

 private:
  // Deletes what the new list lacks, adds and updates the rest.
  void MergeReplace() {
    for (const auto& stored : store_.List()) {
      if (pending_.Find(*stored) == nullptr) {
        Dispatch(WatchEventType::kDeleted, store_.Erase(stored->meta.Key()), nullptr);
      }
    }
    for (const auto& object : pending_) {
      Ptr old = store_.Upsert(object);
      if (!old) {
        Dispatch(WatchEventType::kAdded, nullptr, object);
      } else if (old->meta.resource_version != object->meta.resource_version) {
        Dispatch(WatchEventType::kModified, old, object);
      }
    }
  }

  Result<Ptr> Project(const RawObject& object) {
    auto projected = transform_(object);
    if (!projected.ok()) return projected.status();
    return Ptr(std::make_shared<const T>(std::move(*projected)));
  }

  bool Kept(const T& object) const { return !keep_ || keep_(object); }

  // Called with dispatch_mu_ held, so each handler gets events in order.
  void Dispatch(WatchEventType type, const Ptr& old_object, const Ptr& new_object) {
    for (const auto& listener : Listeners()) listener->Push(type, old_object, new_object);
  }

  std::vector<std::shared_ptr<HandlerListener<T>>> Listeners() const {
    std::lock_guard lock(listeners_mu_);
    return listeners_;
  }

  // Taking sync_mu_ orders this after a waiter's check of HasSynced().
  void NotifySyncWaiters() {
    { std::lock_guard lock(sync_mu_); }
    sync_cv_.notify_all();
  }

  Store<T>& store_;
  Transform transform_;
  Keep keep_;
  KeyedSet<T> pending_;
  HandlerMetrics metrics_;
  std::shared_ptr<Clock> clock_;
  // Lock order: dispatch_mu_, then sync_mu_, then listeners_mu_, then a
  // listener's own lock. No handler code runs under any of them.
  std::mutex dispatch_mu_;
  bool stopped_ = false;
  std::atomic<bool> store_synced_{false};
  std::mutex sync_mu_;
  std::condition_variable sync_cv_;
  mutable std::mutex listeners_mu_;
  std::vector<std::shared_ptr<HandlerListener<T>>> listeners_;
};

}  // namespace kube
