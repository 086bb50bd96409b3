#include "src/base/SipHash.h"

#include <bit>

namespace kube {

SipHash::SipHash(uint64_t key0, uint64_t key1, int compression_rounds, int finalization_rounds)
    : v0_(key0 ^ 0x736f6d6570736575ULL),
      v1_(key1 ^ 0x646f72616e646f6dULL),
      v2_(key0 ^ 0x6c7967656e657261ULL),
      v3_(key1 ^ 0x7465646279746573ULL),
      compression_rounds_(compression_rounds),
      finalization_rounds_(finalization_rounds) {}

void SipHash::Round() {
  v0_ += v1_;
  v1_ = std::rotl(v1_, 13);
  v1_ ^= v0_;
  v0_ = std::rotl(v0_, 32);
  v2_ += v3_;
  v3_ = std::rotl(v3_, 16);
  v3_ ^= v2_;
  v0_ += v3_;
  v3_ = std::rotl(v3_, 21);
  v3_ ^= v0_;
  v2_ += v1_;
  v1_ = std::rotl(v1_, 17);
  v1_ ^= v2_;
  v2_ = std::rotl(v2_, 32);
}

void SipHash::Compress(uint64_t word) {
  v3_ ^= word;
  for (int i = 0; i < compression_rounds_; ++i) Round();
  v0_ ^= word;
}

void SipHash::Update(std::string_view bytes) {
  total_ += bytes.size();
  for (unsigned char byte : bytes) {
    tail_ |= static_cast<uint64_t>(byte) << (8 * tail_size_);
    if (++tail_size_ == 8) {
      Compress(tail_);
      tail_ = 0;
      tail_size_ = 0;
    }
  }
}

uint64_t SipHash::Finish() {
  Compress(tail_ | (total_ << 56));
  v2_ ^= 0xff;
  for (int i = 0; i < finalization_rounds_; ++i) Round();
  return v0_ ^ v1_ ^ v2_ ^ v3_;
}

}  // namespace kube
