#include <gtest/gtest.h>

#include <string>

#include "src/cache/JsonSpans.h"

namespace kube::json {
namespace {

TEST(JsonSpansTest, SplitsObjectMembersWithoutLookingInside) {
  auto members = ObjectMembers(R"( {"a": 1, "b":{"c":[1,2,"x,}"]}, "d\"e" : "]" } )");
  ASSERT_TRUE(members.ok()) << members.status().ToString();
  ASSERT_EQ(members->size(), 3u);
  EXPECT_EQ((*members)[0].key, "a");
  EXPECT_EQ((*members)[0].value, "1");
  EXPECT_EQ((*members)[1].value, R"({"c":[1,2,"x,}"]})");
  EXPECT_EQ((*members)[2].key, R"(d\"e)");
  EXPECT_EQ((*members)[2].value, R"("]")");
}

TEST(JsonSpansTest, SplitsArrayElementsAtAnyDepth) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  std::string text = "[" + deep + ", {}, 3]";
  auto elements = ArrayElements(text);
  ASSERT_TRUE(elements.ok()) << elements.status().ToString();
  ASSERT_EQ(elements->size(), 3u);
  EXPECT_EQ((*elements)[0].size(), deep.size());
  EXPECT_EQ((*elements)[2], "3");
  EXPECT_TRUE(ArrayElements("[]")->empty());
}

TEST(JsonSpansTest, RefusesWhatIsNotOneContainer) {
  EXPECT_FALSE(ObjectMembers("[1]").ok());
  EXPECT_FALSE(ObjectMembers(R"({"a":1)").ok());
  EXPECT_FALSE(ObjectMembers(R"({"a":1} x)").ok());
  EXPECT_FALSE(ObjectMembers(R"({"a"})").ok());
  EXPECT_FALSE(ArrayElements("[1,,2]").ok());
  EXPECT_FALSE(ArrayElements("").ok());
  EXPECT_EQ(MemberText(R"({"a":{"b":2}})", "a"), R"({"b":2})");
  EXPECT_EQ(MemberText(R"({"a":1})", "z"), "");
}

}  // namespace
}  // namespace kube::json
