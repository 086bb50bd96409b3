#include <gtest/gtest.h>

#include <vector>

#include "src/base/Base64.h"

namespace kube {
namespace {

TEST(Base64Test, RoundTripsAllPaddingLengths) {
  for (std::string raw : std::vector<std::string>{"", "f", "fo", "foo", "foob", "fooba", "foobar",
                                                  std::string("\0\xff\x10", 3)}) {
    auto decoded = Base64Decode(Base64Encode(raw));
    ASSERT_TRUE(decoded.ok()) << raw;
    EXPECT_EQ(*decoded, raw);
  }
}

TEST(Base64Test, KnownVectors) {
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(*Base64Decode("Zm9v\nYmFy\n"), "foobar");
  EXPECT_EQ(*Base64Decode("Zm8"), "fo") << "padding is optional";
}

TEST(Base64Test, RejectsInvalidInput) {
  auto bad_char = Base64Decode("Zm9v!mFy");
  ASSERT_FALSE(bad_char.ok());
  EXPECT_EQ(bad_char.status().code(), StatusCode::kParseError);
  EXPECT_NE(bad_char.status().message().find("offset 4"), std::string::npos);
  EXPECT_FALSE(Base64Decode("Z").ok()) << "a single sextet cannot encode a byte";
  EXPECT_FALSE(Base64Decode("Zm=9").ok()) << "data after padding";
}

}  // namespace
}  // namespace kube
