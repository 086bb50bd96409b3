#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "src/cache/EventHandler.h"
#include "src/cache/ObjectMeta.h"
#include "src/cache/Reflector.h"
#include "src/cache/Store.h"

namespace kube {

// One list+watch of a resource type feeding a Store of typed projections and
// any number of event handlers. T must have a public `ObjectMeta meta`.
// The transform turns a JSON object into T; it is the only place the JSON is
// looked at, so the cache never holds JSON trees.
template <typename T>
class Informer : public ReflectorSink {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Transform = std::function<Result<T>(simdjson::dom::element)>;

  Informer(std::shared_ptr<RestClient> client, ResourceType type, Transform transform,
           ReflectorOptions options = {})
      : transform_(std::move(transform)),
        reflector_(std::move(client), std::move(type), *this, options) {}
  ~Informer() override { Stop(); }

  Store<T>& store() { return store_; }
  const Reflector& reflector() const { return reflector_; }

  // A handler added after the first sync first receives an add per cached object.
  void AddHandler(std::shared_ptr<EventHandler<T>> handler) {
    std::lock_guard dispatch(dispatch_mu_);
    if (HasSynced()) {
      for (const auto& object : store_.List()) handler->OnAdd(object);
    }
    handlers_.push_back(std::move(handler));
  }

  void Start() { reflector_.Start(); }
  void Stop() { reflector_.Stop(); }

  bool HasSynced() const {
    std::lock_guard lock(sync_mu_);
    return synced_;
  }

  bool WaitForSync(std::chrono::milliseconds timeout) {
    std::unique_lock lock(sync_mu_);
    return sync_cv_.wait_for(lock, timeout, [this] { return synced_; });
  }

  // ReflectorSink:
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
    if (!projected.ok()) return projected.status();
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

 private:
  Result<Ptr> Project(simdjson::dom::element object) {
    auto projected = transform_(object);
    if (!projected.ok()) return projected.status();
    return Ptr(std::make_shared<const T>(std::move(*projected)));
  }

  // Called with dispatch_mu_ held, so handlers see events in order.
  void Dispatch(WatchEventType type, const Ptr& old_object, const Ptr& new_object) {
    for (const auto& handler : handlers_) {
      try {
        if (type == WatchEventType::kAdded) handler->OnAdd(new_object);
        if (type == WatchEventType::kModified) handler->OnUpdate(old_object, new_object);
        if (type == WatchEventType::kDeleted) handler->OnDelete(old_object);
      } catch (const std::exception& e) {
        spdlog::error("event handler threw: {}", e.what());
      }
    }
  }

  void MarkSynced() {
    {
      std::lock_guard lock(sync_mu_);
      synced_ = true;
    }
    sync_cv_.notify_all();
  }

  Transform transform_;
  Store<T> store_;
  std::unordered_map<std::string, Ptr> pending_;
  std::mutex dispatch_mu_;
  std::vector<std::shared_ptr<EventHandler<T>>> handlers_;
  mutable std::mutex sync_mu_;
  std::condition_variable sync_cv_;
  bool synced_ = false;
  Reflector reflector_;  // last: stopped and destroyed before the state above
};

}  // namespace kube
