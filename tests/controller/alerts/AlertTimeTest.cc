#include <gtest/gtest.h>

#include "controller/alerts/AlertTime.h"

namespace dra::alerts {
namespace {

TEST(AlertTimeTest, ReadsAlertmanagersFormsToTheMillisecond) {
  EXPECT_EQ(AlertTime::ToMillis("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(AlertTime::ToMillis("2026-12-05T07:31:10Z"), 1796455870000);
  EXPECT_EQ(AlertTime::ToMillis("2026-12-05T07:31:10.123456789Z"), 1796455870123);
  EXPECT_EQ(AlertTime::ToMillis("2026-12-05T07:31:10.5Z"), 1796455870500);
  EXPECT_EQ(AlertTime::ToMillis("2026-12-05T08:31:10.000+01:00"), 1796455870000);
  EXPECT_EQ(AlertTime::ToMillis("2026-12-05T02:01:10-05:30"), 1796455870000);
}

TEST(AlertTimeTest, GoZeroTimeIsLongBeforeAnyAlert) {
  auto zero = AlertTime::ToMillis("0001-01-01T00:00:00Z");
  ASSERT_TRUE(zero.has_value());
  EXPECT_LT(*zero, 0);
}

TEST(AlertTimeTest, RefusesWhatIsNotRfc3339) {
  for (const char* text :
       {"", "2026-12-05", "2026-12-05 07:31:10Z", "2026-13-05T07:31:10Z", "2026-02-30T07:31:10Z",
        "2026-12-05T24:00:00Z", "2026-12-05T07:31:10", "2026-12-05T07:31:10.Z",
        "2026-12-05T07:31:10.1234567890Z", "2026-12-05T07:31:10+0100", "2026-12-05T07:31:10Zjunk",
        "２０２６-12-05T07:31:10Z"}) {
    EXPECT_FALSE(AlertTime::ToMillis(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace dra::alerts
