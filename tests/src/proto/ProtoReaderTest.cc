#include <gtest/gtest.h>

#include <string>

#include "src/proto/ProtoReader.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

TEST(ProtoReaderTest, ReadsEachWireTypeInOrder) {
  ProtoWriter w;
  w.Varint(1, 300).Bytes(2, "gpu").Fixed32(3, 0x01020304).Fixed64(4, 0x0102030405060708ull);
  w.Varint(536870911, uint64_t(-5));  // the largest field number; a negative int64
  ProtoReader r(w.str());
  ASSERT_TRUE(r.Next());
  EXPECT_EQ(r.field(), 1u);
  EXPECT_TRUE(r.is_varint());
  EXPECT_EQ(r.number(), 300u);
  ASSERT_TRUE(r.Next());
  EXPECT_EQ(r.field(), 2u);
  EXPECT_TRUE(r.is_bytes());
  EXPECT_EQ(r.bytes(), "gpu");
  ASSERT_TRUE(r.Next());
  EXPECT_EQ(r.number(), 0x01020304u);
  ASSERT_TRUE(r.Next());
  EXPECT_EQ(r.number(), 0x0102030405060708ull);
  ASSERT_TRUE(r.Next());
  EXPECT_EQ(r.field(), 536870911u);
  EXPECT_EQ(r.AsInt64(), -5);
  EXPECT_FALSE(r.Next());
  EXPECT_TRUE(r.ok());
}

TEST(ProtoReaderTest, AnEmptyMessageHasNoFields) {
  ProtoReader r("");
  EXPECT_FALSE(r.Next());
  EXPECT_TRUE(r.ok());
}

// Every way a message can be cut short or corrupted ends the walk with an
// error, never a read past the end.
TEST(ProtoReaderTest, MalformedInputIsAnErrorNotACrash) {
  std::string full = ProtoWriter().Bytes(2, "abcdef").Varint(1, 1u << 20).str();
  for (size_t cut = 1; cut < full.size(); ++cut) {
    if (cut == 8) continue;  // a whole first field: a valid message
    ProtoReader r(std::string_view(full).substr(0, cut));
    while (r.Next()) {
    }
    EXPECT_FALSE(r.ok()) << "cut at " << cut;
  }
  struct Case {
    std::string bytes;
    const char* what;
  };
  const Case cases[] = {
      {std::string("\x0b", 1), "group start (wire type 3)"},
      {std::string("\x0e", 1), "wire type 6"},
      {std::string("\x00\x01", 2), "field number 0"},
      {std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12), "11-byte varint"},
      {std::string("\x12\xff\xff\xff\xff\x0f", 6), "length past the end"},
      {std::string("\xf8\xff\xff\xff\x7f\x00", 6), "field number over 2^29-1"},
  };
  for (const auto& c : cases) {
    ProtoReader r(c.bytes);
    while (r.Next()) {
    }
    EXPECT_FALSE(r.ok()) << c.what;
    EXPECT_EQ(r.status().code(), StatusCode::kParseError) << c.what;
  }
}

}  // namespace
}  // namespace kube
