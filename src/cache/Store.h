#pragma once

#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kube {

// A thread-safe cache of typed projections keyed by "namespace/name", with
// secondary indexes. Objects are immutable once stored (shared_ptr<const T>):
// readers keep a consistent snapshot of an object while writers replace it.
template <typename T>
class Store {
 public:
  using Ptr = std::shared_ptr<const T>;
  // Returns the index values of an object (e.g. its node name).
  using IndexFunc = std::function<std::vector<std::string>(const T&)>;

  // Indexers must be added before the first object is stored.
  void AddIndex(const std::string& name, IndexFunc func) {
    std::unique_lock lock(mu_);
    indexers_[name] = std::move(func);
  }

  // Stores `object` under `key` and returns the previous object, if any.
  Ptr Upsert(const std::string& key, Ptr object) {
    std::unique_lock lock(mu_);
    Ptr old;
    auto it = items_.find(key);
    if (it != items_.end()) {
      old = it->second;
      Unindex(key, *old);
      it->second = object;
    } else {
      items_.emplace(key, object);
    }
    Index(key, *object);
    return old;
  }

  // Removes `key` and returns what was stored, if anything.
  Ptr Erase(const std::string& key) {
    std::unique_lock lock(mu_);
    auto it = items_.find(key);
    if (it == items_.end()) return nullptr;
    Ptr old = it->second;
    Unindex(key, *old);
    items_.erase(it);
    return old;
  }

  Ptr Get(const std::string& key) const {
    std::shared_lock lock(mu_);
    auto it = items_.find(key);
    return it == items_.end() ? nullptr : it->second;
  }

  std::vector<Ptr> List() const {
    std::shared_lock lock(mu_);
    std::vector<Ptr> out;
    out.reserve(items_.size());
    for (const auto& [key, object] : items_) out.push_back(object);
    return out;
  }

  std::vector<std::string> Keys() const {
    std::shared_lock lock(mu_);
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const auto& [key, object] : items_) out.push_back(key);
    return out;
  }

  // Objects whose index `name` contains `value`.
  std::vector<Ptr> ByIndex(const std::string& name, const std::string& value) const {
    std::shared_lock lock(mu_);
    std::vector<Ptr> out;
    auto index = indexes_.find(name);
    if (index == indexes_.end()) return out;
    auto keys = index->second.find(value);
    if (keys == index->second.end()) return out;
    for (const auto& key : keys->second) out.push_back(items_.at(key));
    return out;
  }

  size_t Size() const {
    std::shared_lock lock(mu_);
    return items_.size();
  }

 private:
  void Index(const std::string& key, const T& object) {
    for (const auto& [name, func] : indexers_) {
      for (const auto& value : func(object)) indexes_[name][value].insert(key);
    }
  }

  void Unindex(const std::string& key, const T& object) {
    for (const auto& [name, func] : indexers_) {
      auto& index = indexes_[name];
      for (const auto& value : func(object)) {
        auto it = index.find(value);
        if (it == index.end()) continue;
        it->second.erase(key);
        if (it->second.empty()) index.erase(it);
      }
    }
  }

  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, Ptr> items_;
  std::map<std::string, IndexFunc> indexers_;
  std::map<std::string, std::unordered_map<std::string, std::unordered_set<std::string>>> indexes_;
};

}  // namespace kube
