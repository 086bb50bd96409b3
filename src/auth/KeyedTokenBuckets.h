#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

#include "src/base/TokenBucket.h"

namespace kube {

// One token bucket per key (a peer address, an identity), each starting
// full, at most `max_keys` of them: when full, buckets idle long enough to
// be full again are dropped first (a new one is the same), then the least
// recently used. Not thread-safe.
class KeyedTokenBuckets {
 public:
  KeyedTokenBuckets(int burst, TokenBucket::Nanos interval, std::size_t max_keys);

  // Takes a whole token from `key`'s bucket if one is there at `now`.
  bool TryTake(const std::string& key, TokenBucket::Nanos now);
  std::size_t size() const { return buckets_.size(); }

 private:
  struct Entry {
    TokenBucket bucket;
    TokenBucket::Nanos last_used;
  };

  void MakeRoom(TokenBucket::Nanos now);

  int burst_;
  TokenBucket::Nanos interval_;
  std::size_t max_keys_;
  std::unordered_map<std::string, Entry> buckets_;
};

}  // namespace kube
