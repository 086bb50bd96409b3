#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/base/Utf8Text.h"

namespace kube {
namespace {

// "é" is two bytes, "€" three, "𝄞" four.
TEST(Utf8TextTest, ShortTextIsKeptWhole) {
  EXPECT_EQ(Utf8Text::Prefix("h\xC3\xA9", 3), "h\xC3\xA9");
  EXPECT_EQ(Utf8Text::Truncate("abc", 3, "..."), "abc");
}

TEST(Utf8TextTest, NeverCutsInsideACharacter) {
  const std::string euro = "\xE2\x82\xAC";
  const std::string clef = "\xF0\x9D\x84\x9E";
  EXPECT_EQ(Utf8Text::Prefix("a" + euro, 2), "a");
  EXPECT_EQ(Utf8Text::Prefix("a" + euro, 3), "a");
  EXPECT_EQ(Utf8Text::Prefix("a" + euro + "b", 4), "a" + euro);
  EXPECT_EQ(Utf8Text::Prefix(clef + clef, 7), clef);
  EXPECT_EQ(Utf8Text::Prefix(clef, 1), "");
}

TEST(Utf8TextTest, EveryCutOfMultiByteTextStaysValidUtf8) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9Ex";
  for (size_t limit = 0; limit <= text.size(); ++limit) {
    std::string cut = Utf8Text::Truncate(text, limit, "...");
    EXPECT_LE(cut.size(), std::max<size_t>(limit, 3)) << limit;
    EXPECT_NO_THROW((void)nlohmann::json(cut).dump()) << "cut at " << limit;
  }
}

TEST(Utf8TextTest, MarkerFitsWithinTheLimit) {
  EXPECT_EQ(Utf8Text::Truncate("abcdefgh", 6, "..."), "abc...");
  EXPECT_EQ(Utf8Text::Truncate("\xC3\xA9\xC3\xA9\xC3\xA9", 6 - 1, "."), "\xC3\xA9\xC3\xA9.");
}

}  // namespace
}  // namespace kube
