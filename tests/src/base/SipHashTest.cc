#include <gtest/gtest.h>

#include <string>

#include "src/base/SipHash.h"

namespace kube {
namespace {

// Key 00 01 .. 0f, as in the reference implementation's test vectors.
constexpr uint64_t kKey0 = 0x0706050403020100ULL;
constexpr uint64_t kKey1 = 0x0f0e0d0c0b0a0908ULL;

std::string Bytes(size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += static_cast<char>(i);
  return out;
}

uint64_t SipHash24(const std::string& message) {
  SipHash hash(kKey0, kKey1, 2, 4);
  hash.Update(message);
  return hash.Finish();
}

TEST(SipHashTest, MatchesTheReferenceVectorsOfSipHash24) {
  EXPECT_EQ(SipHash24(Bytes(0)), 0x726fdb47dd0e0e31ULL);
  EXPECT_EQ(SipHash24(Bytes(1)), 0x74f839c593dc67fdULL);
  EXPECT_EQ(SipHash24(Bytes(15)), 0xa129ca6149be45e5ULL);
}

TEST(SipHashTest, PiecesHashAsTheWhole) {
  std::string message = Bytes(37);
  for (size_t cut = 0; cut <= message.size(); ++cut) {
    SipHash pieces(kKey0, kKey1);
    pieces.Update(std::string_view(message).substr(0, cut));
    pieces.Update(std::string_view(message).substr(cut));
    SipHash whole(kKey0, kKey1);
    whole.Update(message);
    EXPECT_EQ(pieces.Finish(), whole.Finish()) << cut;
  }
}

TEST(SipHashTest, TheKeyChangesTheHash) {
  SipHash a(kKey0, kKey1);
  SipHash b(kKey0 + 1, kKey1);
  a.Update("team/pod-1");
  b.Update("team/pod-1");
  EXPECT_NE(a.Finish(), b.Finish());
}

}  // namespace
}  // namespace kube
