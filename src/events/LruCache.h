#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace kube {

// A map with a size bound that forgets the least recently used entry when
// full. Not thread-safe: the owner serializes access.
template <typename Value>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The entry for `key`, default-constructed if absent; marks it most recently
  // used. The reference stays valid until the next insertion of another key.
  Value& GetOrCreate(const std::string& key) {
    auto it = index_.find(key);
    if (it != index_.end()) {
      entries_.splice(entries_.begin(), entries_, it->second);
      return it->second->second;
    }
    if (entries_.size() >= capacity_) EvictOldest();
    entries_.emplace_front(key, Value{});
    index_.emplace(key, entries_.begin());
    return entries_.front().second;
  }

  bool Contains(const std::string& key) const { return index_.count(key) != 0; }
  size_t size() const { return entries_.size(); }

 private:
  using Entry = std::pair<std::string, Value>;

  void EvictOldest() {
    index_.erase(entries_.back().first);
    entries_.pop_back();
  }

  size_t capacity_;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
};

}  // namespace kube
