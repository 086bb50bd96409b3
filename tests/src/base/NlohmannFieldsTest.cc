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

}  // namespace
}  // namespace kube
