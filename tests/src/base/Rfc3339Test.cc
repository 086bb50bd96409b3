#include <gtest/gtest.h>

#include "src/base/Rfc3339.h"

namespace kube {
namespace {

TEST(Rfc3339Test, ReadsAlertmanagersFormsToTheMillisecond) {
  EXPECT_EQ(Rfc3339::ToMillis("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(Rfc3339::ToMillis("2026-12-05T07:31:10Z"), 1796455870000);
  EXPECT_EQ(Rfc3339::ToMillis("2026-12-05T07:31:10.123456789Z"), 1796455870123);
  EXPECT_EQ(Rfc3339::ToMillis("2026-12-05T07:31:10.5Z"), 1796455870500);
  EXPECT_EQ(Rfc3339::ToMillis("2026-12-05T08:31:10.000+01:00"), 1796455870000);
  EXPECT_EQ(Rfc3339::ToMillis("2026-12-05T02:01:10-05:30"), 1796455870000);
}

TEST(Rfc3339Test, GoZeroTimeIsLongBeforeAnyAlert) {
  auto zero = Rfc3339::ToMillis("0001-01-01T00:00:00Z");
  ASSERT_TRUE(zero.has_value());
  EXPECT_LT(*zero, 0);
}

TEST(Rfc3339Test, RefusesWhatIsNotRfc3339) {
  for (const char* text :
       {"", "2026-12-05", "2026-12-05 07:31:10Z", "2026-13-05T07:31:10Z", "2026-02-30T07:31:10Z",
        "2026-12-05T24:00:00Z", "2026-12-05T07:31:10", "2026-12-05T07:31:10.Z",
        "2026-12-05T07:31:10.1234567890Z", "2026-12-05T07:31:10+0100", "2026-12-05T07:31:10Zjunk",
        "２０２６-12-05T07:31:10Z"}) {
    EXPECT_FALSE(Rfc3339::ToMillis(text).has_value()) << text;
  }
}

TEST(Rfc3339Test, FormatsToTheMillisecondAndReadsItBack) {
  EXPECT_EQ(Rfc3339::FormatMillis(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(Rfc3339::FormatMillis(1796455870930), "2026-12-05T07:31:10.930Z");
  EXPECT_EQ(Rfc3339::FormatMillis(4102444799999), "2099-12-31T23:59:59.999Z");
  for (int64_t millis :
       {int64_t{0}, int64_t{1}, int64_t{999}, int64_t{1796455870930}, int64_t{4102444799999}}) {
    EXPECT_EQ(Rfc3339::ToMillis(Rfc3339::FormatMillis(millis)), millis);
  }
}

TEST(Rfc3339Test, TellsAFractionalSecondFromAWholeOne) {
  EXPECT_TRUE(Rfc3339::HasFraction("2026-12-05T07:31:10.930Z"));
  EXPECT_TRUE(Rfc3339::HasFraction("2026-12-05T07:31:10.0Z"));
  EXPECT_FALSE(Rfc3339::HasFraction("2026-12-05T07:31:10Z"));
  EXPECT_FALSE(Rfc3339::HasFraction(""));
}

}  // namespace
}  // namespace kube
