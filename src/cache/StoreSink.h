#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/base/Result.h"
#include "src/cache/EventHandler.h"
#include "src/cache/ObjectMeta.h"
#include "src/cache/ReflectorSink.h"
#include "src/cache/Store.h"

namespace kube {

// The writing side of an informer: projects what its reflector reads into
// typed objects, keeps a Store equal to them, and tells event handlers what
// changed, in order. T must have a public `ObjectMeta meta`. Handlers run on
// the reflector's thread with no store lock held, so they may read the store.
template <typename T>
class StoreSink : public ReflectorSink {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Transform = std::function<Result<T>(simdjson::dom::element)>;

  StoreSink(Store<T>& store, Transform transform)
      : store_(store), transform_(std::move(transform)) {}

  // A handler added after the first sync first receives an add per cached object.
  void AddHandler(std::shared_ptr<EventHandler<T>> handler) {
    std::lock_guard dispatch(dispatch_mu_);
    if (HasSynced()) {
      for (const auto& object : store_.List())
        Deliver(*handler, WatchEventType::kAdded, {}, object);
    }
    handlers_.push_back(std::move(handler));
  }

  bool HasSynced() const {
    std::lock_guard lock(sync_mu_);
    return synced_;
  }

  bool WaitForSync(std::chrono::milliseconds timeout) {
    std::unique_lock lock(sync_mu_);
    return sync_cv_.wait_for(lock, timeout, [this] { return synced_; });
  }

  void BeginReplace() override { pending_.clear(); }

  Status ReplaceItem(simdjson::dom::element object) override {
    auto projected = Project(object);
    if (!projected.ok()) return projected.status();
    std::string key = (*projected)->meta.Key();
    pending_[key] = std::move(*projected);
    return Status::Ok();
  }

  void EndReplace(const std::string& /*resource_version*/) override {
    std::lock_guard dispatch(dispatch_mu_);
    for (const auto& key : store_.Keys()) {
      if (pending_.count(key) == 0) Dispatch(WatchEventType::kDeleted, store_.Erase(key), nullptr);
    }
    for (auto& [key, object] : pending_) {
      Ptr old = store_.Upsert(key, object);
      if (!old) {
        Dispatch(WatchEventType::kAdded, nullptr, object);
      } else if (old->meta.resource_version != object->meta.resource_version) {
        Dispatch(WatchEventType::kModified, old, object);
      }
    }
    pending_.clear();
    MarkSynced();
  }

  void AbortReplace() override { pending_.clear(); }

  Status Apply(WatchEventType type, simdjson::dom::element object) override {
    auto projected = Project(object);
    if (!projected.ok()) {
      // The metadata usually still reads; without it there is no key to drop.
      auto meta = ObjectMeta::FromObject(object);
      if (meta.ok()) Remove(meta->Key());
      return projected.status();
    }
    std::lock_guard dispatch(dispatch_mu_);
    std::string key = (*projected)->meta.Key();
    if (type == WatchEventType::kDeleted) {
      Ptr old = store_.Erase(key);
      Dispatch(type, old ? old : *projected, nullptr);
      return Status::Ok();
    }
    Ptr old = store_.Upsert(key, *projected);
    Dispatch(old ? WatchEventType::kModified : WatchEventType::kAdded, old, *projected);
    return Status::Ok();
  }

  void Remove(const std::string& key) override {
    std::lock_guard dispatch(dispatch_mu_);
    Ptr old = store_.Erase(key);
    if (old) Dispatch(WatchEventType::kDeleted, old, nullptr);
  }

 private:
  Result<Ptr> Project(simdjson::dom::element object) {
    auto projected = transform_(object);
    if (!projected.ok()) return projected.status();
    return Ptr(std::make_shared<const T>(std::move(*projected)));
  }

  // Called with dispatch_mu_ held, so handlers see events in order.
  void Dispatch(WatchEventType type, const Ptr& old_object, const Ptr& new_object) {
    for (const auto& handler : handlers_) Deliver(*handler, type, old_object, new_object);
  }

  static void Deliver(EventHandler<T>& handler, WatchEventType type, const Ptr& old_object,
                      const Ptr& new_object) {
    try {
      if (type == WatchEventType::kAdded) handler.OnAdd(new_object);
      if (type == WatchEventType::kModified) handler.OnUpdate(old_object, new_object);
      if (type == WatchEventType::kDeleted) handler.OnDelete(old_object);
    } catch (const std::exception& e) {
      spdlog::error("event handler threw: {}", e.what());
    } catch (...) {
      spdlog::error("event handler threw an unknown exception");
    }
  }

  void MarkSynced() {
    {
      std::lock_guard lock(sync_mu_);
      synced_ = true;
    }
    sync_cv_.notify_all();
  }

  Store<T>& store_;
  Transform transform_;
  std::unordered_map<std::string, Ptr> pending_;
  std::mutex dispatch_mu_;
  std::vector<std::shared_ptr<EventHandler<T>>> handlers_;
  mutable std::mutex sync_mu_;
  std::condition_variable sync_cv_;
  bool synced_ = false;
};

}  // namespace kube
