#include <gtest/gtest.h>

#include <string>

#include "src/base/AsciiText.h"

namespace kube {
namespace {

TEST(AsciiTextTest, LowersOnlyAsciiLetters) {
  EXPECT_EQ(AsciiText::Lower("Content-Type: X-1"), "content-type: x-1");
  std::string high_bytes = "\xC3\x84Z";  // a UTF-8 letter is left alone
  EXPECT_EQ(AsciiText::Lower(high_bytes), "\xC3\x84z");
  EXPECT_EQ(AsciiText::Lower(""), "");
}

TEST(AsciiTextTest, TrimsWhitespaceAtBothEnds) {
  EXPECT_EQ(AsciiText::Trim(" \t value \r\n"), "value");
  EXPECT_EQ(AsciiText::Trim("a b"), "a b");
  EXPECT_EQ(AsciiText::Trim("\v\f"), "");
  EXPECT_EQ(AsciiText::Trim(""), "");
}

}  // namespace
}  // namespace kube
