#include "src/base/InternedString.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <new>
#include <unordered_set>

namespace kube {

struct InternedString::Entry {
  std::atomic<uint32_t> refs;
  uint32_t size;
  size_t hash;
  // The text follows the header in the same allocation.
  const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  std::string_view view() const { return {data(), size}; }
};

namespace {

using Entry = InternedString::Entry;

struct EntryHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  size_t operator()(const Entry* entry) const { return entry->hash; }
};

struct EntryEqual {
  using is_transparent = void;
  static std::string_view View(std::string_view text) { return text; }
  static std::string_view View(const Entry* entry) { return entry->view(); }
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    return View(a) == View(b);
  }
};

struct Shard {
  std::mutex mu;
  std::unordered_set<Entry*, EntryHash, EntryEqual> entries;
};

constexpr size_t kShards = 16;

// Never destroyed: objects with static storage may release entries after
// main returns.
std::array<Shard, kShards>& Shards() {
  static auto* shards = new std::array<Shard, kShards>();
  return *shards;
}

Shard& ShardOf(size_t hash) { return Shards()[(hash >> 7) % kShards]; }

Entry* NewEntry(std::string_view text, size_t hash) {
  void* memory = ::operator new(sizeof(Entry) + text.size());
  auto* entry = new (memory) Entry{{1}, static_cast<uint32_t>(text.size()), hash};
  std::memcpy(const_cast<char*>(entry->data()), text.data(), text.size());
  return entry;
}

void DeleteEntry(Entry* entry) {
  entry->~Entry();
  ::operator delete(entry);
}

}  // namespace

InternedString::InternedString(std::string_view text) {
  if (text.empty()) return;
  size_t hash = EntryHash{}(text);
  Shard& shard = ShardOf(hash);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto found = shard.entries.find(text);
  if (found != shard.entries.end()) {
    (*found)->refs.fetch_add(1, std::memory_order_relaxed);
    entry_ = *found;
    return;
  }
  entry_ = NewEntry(text, hash);
  shard.entries.insert(entry_);
}

InternedString::InternedString(const InternedString& other) : entry_(other.entry_) {
  if (entry_ != nullptr) entry_->refs.fetch_add(1, std::memory_order_relaxed);
}

InternedString& InternedString::operator=(const InternedString& other) {
  if (entry_ == other.entry_) return *this;
  InternedString copy(other);
  std::swap(entry_, copy.entry_);
  return *this;
}

InternedString& InternedString::operator=(InternedString&& other) noexcept {
  if (this == &other) return *this;
  Release();
  entry_ = other.entry_;
  other.entry_ = nullptr;
  return *this;
}

InternedString::~InternedString() { Release(); }

std::string_view InternedString::view() const {
  return entry_ == nullptr ? std::string_view() : entry_->view();
}

// A count that would drop to zero is decremented under the shard's lock, the
// same lock a lookup takes to revive an entry: so no lookup can find an entry
// between its last release and its erasure.
void InternedString::Release() {
  if (entry_ == nullptr) return;
  Entry* entry = entry_;
  entry_ = nullptr;
  uint32_t refs = entry->refs.load(std::memory_order_relaxed);
  while (refs > 1) {
    if (entry->refs.compare_exchange_weak(refs, refs - 1, std::memory_order_acq_rel)) return;
  }
  Shard& shard = ShardOf(entry->hash);
  std::lock_guard<std::mutex> lock(shard.mu);
  if (entry->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  shard.entries.erase(entry);
  DeleteEntry(entry);
}

size_t InternedString::PoolSize() {
  size_t total = 0;
  for (Shard& shard : Shards()) {
    std::lock_guard<std::mutex> lock(shard.mu);
    total += shard.entries.size();
  }
  return total;
}

}  // namespace kube
