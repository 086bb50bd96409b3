#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>

#include "src/base/ResourceVersion.h"

namespace kube {
namespace {

TEST(ResourceVersionTest, IsOneWord) { EXPECT_EQ(sizeof(ResourceVersion), 8u); }

TEST(ResourceVersionTest, ReadsBackEveryTextExactly) {
  for (std::string text :
       {"", "0", "1", "12345", "9223372036854775807", "9223372036854775808", "18446744073709551616",
        "007", "-1", "1a", "abc", " 1", "a-version-with-more-than-fifteen-characters"}) {
    ResourceVersion version(text);
    EXPECT_EQ(version.str(), text);
    EXPECT_EQ(version, text);
    EXPECT_EQ(version.empty(), text.empty());
  }
}

TEST(ResourceVersionTest, EqualTextsAreEqualAndOthersAreNot) {
  EXPECT_EQ(ResourceVersion("42"), ResourceVersion(std::string("42")));
  EXPECT_EQ(ResourceVersion("x42"), ResourceVersion("x42"));
  EXPECT_NE(ResourceVersion("42"), ResourceVersion("042"));
  EXPECT_NE(ResourceVersion("42"), ResourceVersion("43"));
  EXPECT_NE(ResourceVersion("x42"), ResourceVersion("x43"));
  EXPECT_NE(ResourceVersion(""), ResourceVersion("0"));
  EXPECT_NE(ResourceVersion("42"), "4");
  EXPECT_NE(ResourceVersion("abc"), std::string("abd"));
}

TEST(ResourceVersionTest, CopiesAndMovesKeepTheText) {
  ResourceVersion number("77"), text("v-77");
  ResourceVersion number_copy = number, text_copy = text;
  EXPECT_EQ(number_copy, "77");
  EXPECT_EQ(text_copy, "v-77");
  ResourceVersion moved = std::move(text_copy);
  EXPECT_EQ(moved, "v-77");
  EXPECT_TRUE(text_copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  moved = number;
  EXPECT_EQ(moved, "77");
  moved = text;
  moved = moved;  // self-assignment keeps it
  EXPECT_EQ(moved, "v-77");
}

TEST(ResourceVersionTest, ConvertsToStringAndPrints) {
  std::string as_string = ResourceVersion("123");
  EXPECT_EQ(as_string, "123");
  std::ostringstream out;
  out << ResourceVersion("123") << ' ' << ResourceVersion("v1");
  EXPECT_EQ(out.str(), "123 v1");
}

}  // namespace
}  // namespace kube
