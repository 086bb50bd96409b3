#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "src/cache/KeyedSet.h"
#include "src/cache/StoreReader.h"

namespace kube {

// A thread-safe cache of typed projections keyed by "namespace/name" (read
// from each object's metadata, see KeyedSet). Objects are immutable once
// stored (shared_ptr<const T>): readers keep a consistent snapshot of an
// object while writers replace it. The lock is held only inside these
// methods, never while callers run.
template <typename T>
class Store : public StoreReader<T> {
 public:
  using Ptr = typename StoreReader<T>::Ptr;

  // Stores `object` under its key and returns the previous object, if any.
  Ptr Upsert(Ptr object) {
    std::unique_lock lock(mu_);
    return items_.Put(std::move(object));
  }

  // Takes `items` as the whole content when the store is empty (the first
  // LIST or watch-list), without re-inserting each object; false otherwise.
  bool AdoptIfEmpty(KeyedSet<T>& items) {
    std::unique_lock lock(mu_);
    if (!items_.empty()) return false;
    items_.swap(items);
    return true;
  }

  // Removes `key` and returns what was stored, if anything.
  Ptr Erase(const std::string& key) {
    std::unique_lock lock(mu_);
    return items_.Erase(key);
  }

  Ptr Get(const std::string& key) const override {
    std::shared_lock lock(mu_);
    const Ptr* found = items_.Find(key);
    return found == nullptr ? nullptr : *found;
  }

  std::vector<Ptr> List() const override {
    std::shared_lock lock(mu_);
    return std::vector<Ptr>(items_.begin(), items_.end());
  }

  std::vector<std::string> Keys() const override {
    std::shared_lock lock(mu_);
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const auto& object : items_) out.push_back(object->meta.Key());
    return out;
  }

  size_t Size() const override {
    std::shared_lock lock(mu_);
    return items_.size();
  }

 private:
  mutable std::shared_mutex mu_;
  KeyedSet<T> items_;
};

}  // namespace kube
