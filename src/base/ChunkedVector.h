#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace kube {

// An append-only sequence kept in fixed-size chunks. Unlike a std::vector it
// never moves its elements and never holds more than one partly used chunk:
// a vector of 40,000 entries sits in capacity for 65,536 and, while it
// grows, briefly holds both the old and the new block. References stay valid
// for the life of the sequence.
template <typename T, size_t kChunkSize = 1024>
class ChunkedVector {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](size_t i) { return (*chunks_[i / kChunkSize])[i % kChunkSize]; }
  const T& operator[](size_t i) const { return (*chunks_[i / kChunkSize])[i % kChunkSize]; }

  // Appends a value-initialized element and returns it.
  T& emplace_back() {
    if (size_ == chunks_.size() * kChunkSize) chunks_.push_back(std::make_unique<Chunk>());
    return (*this)[size_++];
  }

 private:
  using Chunk = std::array<T, kChunkSize>;

  std::vector<std::unique_ptr<Chunk>> chunks_;
  size_t size_ = 0;
};

}  // namespace kube
