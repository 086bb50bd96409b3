#include <gtest/gtest.h>

#include "src/base/NlohmannFields.h"

namespace kube {
namespace {

TEST(NlohmannFieldsTest, MissingKeysAndOtherTypesReadAsNullOrEmpty) {
  auto doc = nlohmann::json::parse(R"({"a":{"b":"text","n":3},"list":[1]})");
  EXPECT_EQ(NlohmannFields::Text(NlohmannFields::At(NlohmannFields::At(doc, "a"), "b")), "text");
  EXPECT_TRUE(NlohmannFields::At(doc, "missing").is_null());
  EXPECT_TRUE(NlohmannFields::At(NlohmannFields::At(doc, "list"), "b").is_null());
  EXPECT_TRUE(NlohmannFields::At(NlohmannFields::At(doc, "missing"), "deeper").is_null());
  EXPECT_EQ(NlohmannFields::Text(NlohmannFields::At(NlohmannFields::At(doc, "a"), "n")), "");
}

TEST(NlohmannFieldsTest, StringAtAndStringOrReadStringsOnly) {
  auto doc = nlohmann::json::parse(R"({"s":"text","empty":"","n":3,"null":null})");
  EXPECT_EQ(NlohmannFields::StringAt(doc, "s"), "text");
  EXPECT_EQ(NlohmannFields::StringOr(doc, "empty", "fallback"), "");
  EXPECT_EQ(NlohmannFields::StringAt(doc, "n"), "");
  EXPECT_EQ(NlohmannFields::StringOr(doc, "null", "fallback"), "fallback");
  EXPECT_EQ(NlohmannFields::StringOr(doc, "missing", "fallback"), "fallback");
  EXPECT_EQ(NlohmannFields::StringOr(nlohmann::json::array(), "s", "fallback"), "fallback");
}

TEST(NlohmannFieldsTest, IntAtReadsIntegersOnlyElseZero) {
  auto doc = nlohmann::json::parse(R"({"n":-7,"big":9007199254740993,"f":1.5,"s":"3"})");
  EXPECT_EQ(NlohmannFields::IntAt(doc, "n"), -7);
  EXPECT_EQ(NlohmannFields::IntAt(doc, "big"), 9007199254740993);
  EXPECT_EQ(NlohmannFields::IntAt(doc, "f"), 0);
  EXPECT_EQ(NlohmannFields::IntAt(doc, "s"), 0);
  EXPECT_EQ(NlohmannFields::IntAt(doc, "missing"), 0);
  EXPECT_EQ(NlohmannFields::IntAt(nullptr, "n"), 0);
}

}  // namespace
}  // namespace kube
