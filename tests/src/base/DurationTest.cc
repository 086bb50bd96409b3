#include <gtest/gtest.h>

#include "src/base/Duration.h"

namespace kube {
namespace {

using std::chrono::milliseconds;

TEST(DurationTest, ParsesGoStyleDurations) {
  EXPECT_EQ(*ParseDuration("15s"), milliseconds(15000));
  EXPECT_EQ(*ParseDuration("500ms"), milliseconds(500));
  EXPECT_EQ(*ParseDuration("1m30s"), milliseconds(90000));
  EXPECT_EQ(*ParseDuration("2h"), milliseconds(7200000));
  EXPECT_EQ(*ParseDuration("1.5s"), milliseconds(1500));
  EXPECT_EQ(*ParseDuration("0"), milliseconds(0));
  EXPECT_EQ(*ParseDuration("1500us"), milliseconds(2)) << "rounded to the nearest millisecond";
}

TEST(DurationTest, RejectsWithExplanation) {
  for (const char* bad : {"", "15", "s", "10x", "1..5s", "-1s", "1e400h"}) {
    auto parsed = ParseDuration(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.status().message().find("invalid duration"), std::string::npos);
  }
}

}  // namespace
}  // namespace kube
