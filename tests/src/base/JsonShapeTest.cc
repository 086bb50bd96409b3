#include <gtest/gtest.h>

#include "src/base/JsonShape.h"

namespace kube {
namespace {

TEST(JsonShapeTest, CountsDepthAndValues) {
  JsonShape shape = JsonShape::Of(R"({"a":[1,2,{"b":"c"}],"d":true,"e":null})");
  EXPECT_EQ(shape.max_depth, 3u);
  // the object, the array, 1, 2, the inner object, "c", true, null
  EXPECT_EQ(shape.values, 8u);
  EXPECT_EQ(JsonShape::Of("42").max_depth, 0u);
  EXPECT_EQ(JsonShape::Of("42").values, 1u);
}

TEST(JsonShapeTest, StringsHideBracketsAndEscapedQuotes) {
  JsonShape shape = JsonShape::Of(R"({"k[":"[[{\"]]","n":-1.5e+3})");
  EXPECT_EQ(shape.max_depth, 1u);
  EXPECT_EQ(shape.values, 3u);
}

TEST(JsonShapeTest, CheckStopsAtTheFirstExcess) {
  EXPECT_TRUE(JsonShape::Check("[[[1]]]", 3, 10).ok());
  Status deep = JsonShape::Check(std::string(1 << 20, '['), 32, 1000000);
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.message().find("nested deeper than 32"), std::string::npos) << deep.ToString();
  Status many = JsonShape::Check("[1,2,3,4,5]", 32, 4);
  ASSERT_FALSE(many.ok());
  EXPECT_NE(many.message().find("more than 4 values"), std::string::npos) << many.ToString();
}

}  // namespace
}  // namespace kube
