#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string_view>
#include <utility>

#include "src/cache/KeyedSetHash.h"

namespace kube {

// Immutable objects keyed by their own metadata: "namespace/name", or "name"
// for cluster-scoped objects (client-go's key). The key is read from the
// object, never copied. The objects' pointers sit in one open-addressed
// array (linear probing, grown by half when 4/5 full), so an entry costs
// 20–30 bytes and no allocation of its own: a node-based set cost 56 (a
// 48-byte heap chunk per entry and a bucket). Not thread-safe.
template <typename T>
class KeyedSet {
 public:
  using Ptr = std::shared_ptr<const T>;

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Ptr;
    using difference_type = std::ptrdiff_t;
    using pointer = const Ptr*;
    using reference = const Ptr&;

    Iterator() = default;
    Iterator(const Ptr* slot, const Ptr* end) : slot_(slot), end_(end) { SkipEmpty(); }
    reference operator*() const { return *slot_; }
    pointer operator->() const { return slot_; }
    Iterator& operator++() {
      ++slot_;
      SkipEmpty();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.slot_ == b.slot_; }

   private:
    void SkipEmpty() {
      while (slot_ != end_ && *slot_ == nullptr) ++slot_;
    }
    const Ptr* slot_ = nullptr;
    const Ptr* end_ = nullptr;
  };

  KeyedSet() = default;
  KeyedSet(KeyedSet&& other) noexcept { swap(other); }
  KeyedSet& operator=(KeyedSet&& other) noexcept {
    KeyedSet moved(std::move(other));
    swap(moved);
    return *this;
  }
  KeyedSet(const KeyedSet&) = delete;
  KeyedSet& operator=(const KeyedSet&) = delete;

  // Stores `object` in place of the object with its key; returns that one.
  // A null object has no key and is not stored.
  Ptr Put(Ptr object) {
    if (object == nullptr) return nullptr;
    if (Ptr* found = Slot(NameOf(object))) return std::exchange(*found, std::move(object));
    if ((size_ + 1) * 5 > capacity_ * 4) Grow();
    *EmptySlotFor(NameOf(object)) = std::move(object);
    ++size_;
    return nullptr;
  }

  // Removes the object under `key`; returns it, or null.
  Ptr Erase(std::string_view key) { return Erase(NameOf(key)); }
  Ptr Erase(std::string_view namespace_name, std::string_view name) {
    return Erase(Name{namespace_name, name});
  }

  const Ptr* Find(std::string_view key) const { return Slot(NameOf(key)); }
  const Ptr* Find(std::string_view namespace_name, std::string_view name) const {
    return Slot({namespace_name, name});
  }
  // The stored object with the same key as `object`.
  const Ptr* Find(const T& object) const { return Slot(NameOf(object)); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Empties the set and gives its array back.
  void clear() {
    slots_.reset();
    capacity_ = 0;
    size_ = 0;
  }
  Iterator begin() const { return {slots_.get(), slots_.get() + capacity_}; }
  Iterator end() const { return {slots_.get() + capacity_, slots_.get() + capacity_}; }

  // The farthest any entry sits from its home slot: how long the longest
  // lookup probes (tests hold it bounded).
  size_t LongestProbe() const {
    size_t longest = 0;
    for (size_t i = 0; i < capacity_; ++i) {
      if (slots_[i] == nullptr) continue;
      size_t home = Home(NameOf(slots_[i]));
      longest = std::max(longest, i >= home ? i - home : i + capacity_ - home);
    }
    return longest;
  }

  void swap(KeyedSet& other) noexcept {
    std::swap(slots_, other.slots_);
    std::swap(capacity_, other.capacity_);
    std::swap(size_, other.size_);
    std::swap(seed_, other.seed_);
  }

 private:
  using Name = std::pair<std::string_view, std::string_view>;  // namespace, name
  static constexpr size_t kMinCapacity = 8;

  static Name NameOf(const T& object) { return {object.meta.namespace_name, object.meta.name}; }
  static Name NameOf(const Ptr& object) { return NameOf(*object); }
  // Namespaces and names never contain '/', so the first one splits the key.
  static Name NameOf(std::string_view key) {
    size_t slash = key.find('/');
    if (slash == std::string_view::npos) return {{}, key};
    return {key.substr(0, slash), key.substr(slash + 1)};
  }
  // Each set hashes with its own seed (KeyedSetHash: SipHash under a key
  // drawn per process) and maps the hash onto [0, capacity) by its high
  // bits. Keyed, so that names chosen by tenants cannot be made to collide;
  // seeded per set, because otherwise one set's iteration order is its hash
  // order, and filling another set in that order (a handler adding every
  // object of a synced store) piles the entries into one run at the front of
  // the smaller, growing array: quadratic probing.
  size_t Home(Name name) const {
    uint64_t hash = KeyedSetHash::Of(seed_, name.first, name.second);
    return static_cast<size_t>((static_cast<unsigned __int128>(hash) * capacity_) >> 64);
  }
  size_t Next(size_t index) const { return index + 1 == capacity_ ? 0 : index + 1; }

  Ptr* Slot(Name name) const {
    if (capacity_ == 0) return nullptr;
    for (size_t i = Home(name);; i = Next(i)) {
      Ptr& slot = slots_[i];
      if (slot == nullptr) return nullptr;
      if (NameOf(slot) == name) return &slot;
    }
  }
  Ptr* EmptySlotFor(Name name) {
    size_t i = Home(name);
    while (slots_[i] != nullptr) i = Next(i);
    return &slots_[i];
  }

  Ptr Erase(Name name) {
    Ptr* found = Slot(name);
    if (found == nullptr) return nullptr;
    Ptr erased = std::move(*found);
    --size_;
    CloseGap(static_cast<size_t>(found - slots_.get()));
    return erased;
  }

  void Grow() {
    size_t capacity = capacity_ == 0 ? kMinCapacity : capacity_ + capacity_ / 2;
    std::unique_ptr<Ptr[]> old = std::exchange(slots_, std::make_unique<Ptr[]>(capacity));
    size_t old_capacity = std::exchange(capacity_, capacity);
    for (size_t i = 0; i < old_capacity; ++i) {
      if (old[i] != nullptr) *EmptySlotFor(NameOf(old[i])) = std::move(old[i]);
    }
  }

  // Backward-shift deletion: moves later entries of the probe run into the
  // gap, so lookups never need tombstones.
  void CloseGap(size_t gap) {
    for (size_t i = Next(gap); slots_[i] != nullptr; i = Next(i)) {
      size_t home = Home(NameOf(slots_[i]));
      // The entry may fill the gap unless its home lies after the gap, up to it.
      bool home_between = gap <= i ? (gap < home && home <= i) : (gap < home || home <= i);
      if (home_between) continue;
      slots_[gap] = std::move(slots_[i]);
      gap = i;
    }
  }

  std::unique_ptr<Ptr[]> slots_;
  size_t capacity_ = 0;
  size_t size_ = 0;
  uint64_t seed_ = KeyedSetHash::NewSeed();
};

}  // namespace kube
