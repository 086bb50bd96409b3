// Kubernetes' regex library (find, findAll) on RE2, as Go's regexp
// (FindString, FindAllString) behaves.
#include "controller/cel/Regex.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(RegexTest, FindAndFindAll) {
  auto re = Regex::Compile("[0-9]+");
  ASSERT_TRUE(re.ok());
  EXPECT_EQ((*re)->Find("a1b22"), "1");
  EXPECT_EQ((*re)->Find("abc"), "");
  EXPECT_EQ((*re)->FindAll("a1b22c333", -1), (std::vector<std::string>{"1", "22", "333"}));
  EXPECT_EQ((*re)->FindAll("a1b22c333", 2), (std::vector<std::string>{"1", "22"}));
  EXPECT_TRUE((*re)->FindAll("a1", 0).empty());
  // Empty matches: one per position, but none right after a match (Go).
  auto star = Regex::Compile("x*");
  ASSERT_TRUE(star.ok());
  EXPECT_EQ((*star)->FindAll("abc", -1), (std::vector<std::string>{"", "", "", ""}));
  auto as = Regex::Compile("a*");
  ASSERT_TRUE(as.ok());
  EXPECT_EQ((*as)->FindAll("aaa", -1), (std::vector<std::string>{"aaa"}));
  EXPECT_EQ((*as)->FindAll("baaab", -1), (std::vector<std::string>{"", "aaa", ""}));
  // ^ anchors at the start of the text only, not at each search position.
  auto anchored = Regex::Compile("^a");
  ASSERT_TRUE(anchored.ok());
  EXPECT_EQ((*anchored)->FindAll("aaa", -1), (std::vector<std::string>{"a"}));
}

TEST(RegexTest, InCel) {
  const Case cases[] = {
      {R"("abc 123".find("[0-9]+") == "123")", T},
      {R"("abc".find("[0-9]+") == "")", T},
      {R"("123 abc 456".findAll("[0-9]+") == ["123", "456"])", T},
      {R"("123 abc 456".findAll("[0-9]+", 1) == ["123"])", T},
      {R"(device.attributes["gpu.example.com"].uuid.find("[0-9a-f]{4}") == "0a1b")", T},
      {R"cel("x".find("(?=x)") == "")cel", E, "lookaround"},
      // RE2, unlike ECMAScript std::regex: no backreferences, and a
      // "leftmost-first" alternation.
      {R"("aa".matches("(a)\\1"))", E, "backreferences"},
      {R"("ab".find("a|ab") == "a")", T},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
