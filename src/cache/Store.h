#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/cache/StoreReader.h"

namespace kube {

// A thread-safe cache of typed projections keyed by "namespace/name". Objects
// are immutable once stored (shared_ptr<const T>): readers keep a consistent
// snapshot of an object while writers replace it. The lock is held only
// inside these methods, never while callers run.
template <typename T>
class Store : public StoreReader<T> {
 public:
  using Ptr = typename StoreReader<T>::Ptr;

  // Stores `object` under `key` and returns the previous object, if any.
  Ptr Upsert(const std::string& key, Ptr object) {
    std::unique_lock lock(mu_);
    Ptr& slot = items_[key];
    Ptr old = std::move(slot);
    slot = std::move(object);
    return old;
  }

  // Removes `key` and returns what was stored, if anything.
  Ptr Erase(const std::string& key) {
    std::unique_lock lock(mu_);
    auto it = items_.find(key);
    if (it == items_.end()) return nullptr;
    Ptr old = std::move(it->second);
    items_.erase(it);
    return old;
  }

  Ptr Get(const std::string& key) const override {
    std::shared_lock lock(mu_);
    auto it = items_.find(key);
    return it == items_.end() ? nullptr : it->second;
  }

  std::vector<Ptr> List() const override {
    std::shared_lock lock(mu_);
    std::vector<Ptr> out;
    out.reserve(items_.size());
    for (const auto& [key, object] : items_) out.push_back(object);
    return out;
  }

  std::vector<std::string> Keys() const override {
    std::shared_lock lock(mu_);
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const auto& [key, object] : items_) out.push_back(key);
    return out;
  }

  size_t Size() const override {
    std::shared_lock lock(mu_);
    return items_.size();
  }

 private:
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, Ptr> items_;
};

}  // namespace kube
