#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "src/base/Result.h"

namespace kube {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return Status(StatusCode::kInvalidArgument, "must be positive");
  return v;
}

TEST(ResultTest, HoldsValue) {
  auto r = ParsePositive(4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 4);
  EXPECT_TRUE(r.status().ok());
}

TEST(ResultTest, HoldsError) {
  auto r = ParsePositive(-1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "must be positive");
}

TEST(ResultTest, MovesOutMoveOnlyValues) {
  Result<std::unique_ptr<std::string>> r(std::make_unique<std::string>("x"));
  std::unique_ptr<std::string> taken = std::move(r).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, "x");
}

}  // namespace
}  // namespace kube
