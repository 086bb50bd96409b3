#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kube {

// SipHash (Aumasson and Bernstein), a keyed hash for tables whose keys come
// from untrusted input: without the 128-bit key nobody can compute which
// inputs collide. SipHash-1-3 by default (as Rust's HashMap), SipHash-2-4
// when asked. Bytes are fed in any number of pieces.
class SipHash {
 public:
  SipHash(uint64_t key0, uint64_t key1, int compression_rounds = 1, int finalization_rounds = 3);

  void Update(std::string_view bytes);
  uint64_t Finish();

 private:
  void Compress(uint64_t word);
  void Round();

  uint64_t v0_, v1_, v2_, v3_;
  uint64_t tail_ = 0;  // bytes not yet forming a whole word, little-endian
  size_t tail_size_ = 0;
  uint64_t total_ = 0;
  int compression_rounds_;
  int finalization_rounds_;
};

}  // namespace kube
