#include "src/auth/KeyedTokenBuckets.h"

#include <algorithm>

namespace kube {

KeyedTokenBuckets::KeyedTokenBuckets(int burst, TokenBucket::Nanos interval, std::size_t max_keys)
    : burst_(std::max(1, burst)),
      interval_(interval),
      max_keys_(std::max<std::size_t>(1, max_keys)) {}

bool KeyedTokenBuckets::TryTake(const std::string& key, TokenBucket::Nanos now) {
  auto found = buckets_.find(key);
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_keys_) MakeRoom(now);
    found = buckets_.emplace(key, Entry{TokenBucket(burst_, interval_, now), now}).first;
  }
  found->second.last_used = std::max(found->second.last_used, now);
  return found->second.bucket.TryTake(now);
}

void KeyedTokenBuckets::MakeRoom(TokenBucket::Nanos now) {
  // A bucket that never refills is never dropped as "full again".
  if (interval_.count() > 0) {
    auto refilled = interval_ * burst_;
    std::erase_if(buckets_,
                  [&](const auto& entry) { return now - entry.second.last_used >= refilled; });
  }
  if (buckets_.size() < max_keys_) return;
  auto oldest = std::min_element(
      buckets_.begin(), buckets_.end(),
      [](const auto& a, const auto& b) { return a.second.last_used < b.second.last_used; });
  buckets_.erase(oldest);
}

}  // namespace kube
