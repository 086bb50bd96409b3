#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace kube {

// A vector that is one pointer wide: size and capacity live in the heap
// block in front of the elements, and an empty one allocates nothing. For
// the fields of cached objects that are mostly empty or short (a
// std::vector is three pointers), read far more often than written. Elements
// must move without throwing.
template <typename T>
class CompactVector {
  static_assert(std::is_nothrow_move_constructible_v<T>);
  static_assert(alignof(T) <= alignof(std::max_align_t));

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;

  CompactVector() = default;
  CompactVector(std::initializer_list<T> items) { Assign(items.begin(), items.end()); }
  CompactVector(const std::vector<T>& items) { Assign(items.begin(), items.end()); }  // NOLINT
  CompactVector(const CompactVector& other) { Assign(other.begin(), other.end()); }
  CompactVector(CompactVector&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  CompactVector& operator=(const CompactVector& other) {
    if (this != &other) CompactVector(other).swap(*this);
    return *this;
  }
  CompactVector& operator=(CompactVector&& other) noexcept {
    CompactVector(std::move(other)).swap(*this);
    return *this;
  }
  ~CompactVector() { Release(); }

  size_t size() const { return block_ == nullptr ? 0 : block_->size; }
  size_t capacity() const { return block_ == nullptr ? 0 : block_->capacity; }
  bool empty() const { return size() == 0; }

  T* data() { return block_ == nullptr ? nullptr : Elements(block_); }
  const T* data() const { return block_ == nullptr ? nullptr : Elements(block_); }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size() - 1]; }
  const T& back() const { return data()[size() - 1]; }

  operator std::span<const T>() const { return {data(), size()}; }  // NOLINT: reads as a range

  void reserve(size_t capacity) {
    if (capacity > this->capacity()) Reallocate(capacity);
  }
  void shrink_to_fit() {
    if (capacity() == size()) return;
    if (empty()) {
      Release();
      return;
    }
    Reallocate(size());
  }
  void push_back(const T& item) { emplace_back(item); }
  void push_back(T&& item) { emplace_back(std::move(item)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size() == capacity()) {
      // Constructed before growing: `args` may refer to an element.
      T item(std::forward<Args>(args)...);
      Reallocate(capacity() == 0 ? 1 : 2 * capacity());
      return Append(std::move(item));
    }
    return Append(std::forward<Args>(args)...);
  }
  void pop_back() {
    back().~T();
    --block_->size;
  }
  void clear() { Release(); }
  void swap(CompactVector& other) noexcept { std::swap(block_, other.block_); }

  friend bool operator==(const CompactVector& a, const CompactVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  struct Header {
    uint32_t size;
    uint32_t capacity;
  };
  static constexpr size_t kOffset = (sizeof(Header) + alignof(T) - 1) / alignof(T) * alignof(T);

  static T* Elements(Header* block) {
    return std::launder(reinterpret_cast<T*>(reinterpret_cast<char*>(block) + kOffset));
  }
  static const T* Elements(const Header* block) {
    return std::launder(reinterpret_cast<const T*>(reinterpret_cast<const char*>(block) + kOffset));
  }
  static Header* Allocate(size_t capacity) {
    // Plain operator new: its alignment covers every T (max_align_t).
    void* raw = ::operator new(kOffset + capacity * sizeof(T));
    return new (raw) Header{0, static_cast<uint32_t>(capacity)};
  }
  static void Free(Header* block) { ::operator delete(block); }

  template <typename... Args>
  T& Append(Args&&... args) {
    T* slot = Elements(block_) + block_->size;
    new (slot) T(std::forward<Args>(args)...);
    ++block_->size;
    return *slot;
  }

  void Reallocate(size_t capacity) {
    Header* grown = Allocate(capacity);
    if (block_ != nullptr) {
      std::uninitialized_move(begin(), end(), Elements(grown));
      grown->size = block_->size;
      Release();
    }
    block_ = grown;
  }

  template <typename It>
  void Assign(It first, It last) {
    size_t count = static_cast<size_t>(std::distance(first, last));
    if (count == 0) return;
    Header* block = Allocate(count);
    try {
      std::uninitialized_copy(first, last, Elements(block));
    } catch (...) {
      Free(block);
      throw;
    }
    block->size = static_cast<uint32_t>(count);
    block_ = block;
  }

  void Release() {
    if (block_ == nullptr) return;
    std::destroy(begin(), end());
    Free(block_);
    block_ = nullptr;
  }

  Header* block_ = nullptr;
};

}  // namespace kube
