#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "src/base/Clock.h"

namespace kube {

// A thread-safe map whose entries expire, bounded in size: when full, expired
// entries are dropped first and then the one closest to expiry.
template <typename V>
class ExpiringCache {
 public:
  explicit ExpiringCache(std::size_t max_entries) : max_entries_(max_entries) {}

  std::optional<V> Get(const std::string& key, Clock::TimePoint now) const {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.expires_at <= now) return std::nullopt;
    return it->second.value;
  }

  void Put(const std::string& key, V value, Clock::TimePoint expires_at, Clock::TimePoint now) {
    if (max_entries_ == 0) return;
    std::lock_guard lock(mu_);
    entries_.erase(key);
    if (entries_.size() >= max_entries_) MakeRoom(now);
    entries_.emplace(key, Entry{std::move(value), expires_at});
  }

  std::size_t size() const {
    std::lock_guard lock(mu_);
    return entries_.size();
  }

 private:
  struct Entry {
    V value;
    Clock::TimePoint expires_at;
  };

  void MakeRoom(Clock::TimePoint now) {
    std::erase_if(entries_, [now](const auto& entry) { return entry.second.expires_at <= now; });
    if (entries_.size() < max_entries_) return;
    auto soonest = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.expires_at < soonest->second.expires_at) soonest = it;
    }
    entries_.erase(soonest);
  }

  const std::size_t max_entries_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace kube
