#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "src/api/Quantity.h"

namespace kube {
namespace {

// Written independently of Quantity::ToString so that the two check each other.
std::string NanosToString(__int128 value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  std::string digits;
  for (; value != 0; value /= 10) {
    int digit = static_cast<int>(value % 10);
    digits += static_cast<char>('0' + (digit < 0 ? -digit : digit));
  }
  if (negative) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Quantity Q(std::string_view text) {
  auto q = Quantity::Parse(text);
  EXPECT_TRUE(q.ok()) << q.status().ToString();
  return q.ok() ? *q : Quantity();
}

// ---- Valid inputs: exact value and canonical form ----

struct ValidQuantity {
  const char* input;
  const char* nanos;      // exact value in nano-units
  const char* canonical;  // ToString()
};

void PrintTo(const ValidQuantity& c, std::ostream* os) { *os << '"' << c.input << '"'; }

class QuantityValidTest : public ::testing::TestWithParam<ValidQuantity> {};

TEST_P(QuantityValidTest, ParsesExactlyAndRoundTrips) {
  const ValidQuantity& c = GetParam();
  auto q = Quantity::Parse(c.input);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  EXPECT_EQ(NanosToString(q->nanos()), c.nanos);
  EXPECT_EQ(q->ToString(), c.canonical);
  auto again = Quantity::Parse(q->ToString());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, *q);
}

INSTANTIATE_TEST_SUITE_P(
    QuantityCases, QuantityValidTest,
    ::testing::Values(
        // Zero in its many spellings.
        ValidQuantity{"0", "0", "0"}, ValidQuantity{"-0", "0", "0"}, ValidQuantity{"+0", "0", "0"},
        ValidQuantity{"000", "0", "0"}, ValidQuantity{"0.000", "0", "0"},
        ValidQuantity{"0Ki", "0", "0"}, ValidQuantity{"-0.0m", "0", "0"},
        ValidQuantity{"0e99", "0", "0"}, ValidQuantity{"0e9223372036854775807", "0", "0"},
        // Plain numbers, signs, leading zeros, and fractions without a side.
        ValidQuantity{"1", "1000000000", "1"}, ValidQuantity{"+1", "1000000000", "1"},
        ValidQuantity{"-1", "-1000000000", "-1"}, ValidQuantity{"007", "7000000000", "7"},
        ValidQuantity{"1.5", "1500000000", "1500m"}, ValidQuantity{".5", "500000000", "500m"},
        ValidQuantity{"5.", "5000000000", "5"}, ValidQuantity{"-.5", "-500000000", "-500m"},
        ValidQuantity{"0.5", "500000000", "500m"},
        ValidQuantity{"1.G", "1000000000000000000", "1G"},
        ValidQuantity{"100", "100000000000", "100"}, ValidQuantity{"1000", "1000000000000", "1k"},
        ValidQuantity{"1.000000001", "1000000001", "1000000001n"},
        // Decimal SI suffixes.
        ValidQuantity{"1n", "1", "1n"}, ValidQuantity{"1u", "1000", "1u"},
        ValidQuantity{"500m", "500000000", "500m"}, ValidQuantity{"1500m", "1500000000", "1500m"},
        ValidQuantity{"2000m", "2000000000", "2"}, ValidQuantity{"1k", "1000000000000", "1k"},
        ValidQuantity{"1M", "1000000000000000", "1M"},
        ValidQuantity{"1G", "1000000000000000000", "1G"},
        ValidQuantity{"1T", "1000000000000000000000", "1T"},
        ValidQuantity{"1P", "1000000000000000000000000", "1P"},
        ValidQuantity{"1E", "1000000000000000000000000000", "1E"},
        ValidQuantity{"0.000000001E", "1000000000000000000", "1G"},
        ValidQuantity{"-2.5M", "-2500000000000000", "-2500k"},
        // Binary suffixes (rendered in decimal: the format is not kept).
        ValidQuantity{"1Ki", "1024000000000", "1024"},
        ValidQuantity{"1Mi", "1048576000000000", "1048576"},
        ValidQuantity{"1Gi", "1073741824000000000", "1073741824"},
        ValidQuantity{"1Ti", "1099511627776000000000", "1099511627776"},
        ValidQuantity{"1Pi", "1125899906842624000000000", "1125899906842624"},
        ValidQuantity{"1Ei", "1152921504606846976000000000", "1152921504606846976"},
        ValidQuantity{"1.5Ki", "1536000000000", "1536"},
        ValidQuantity{"0.5Ki", "512000000000", "512"},
        ValidQuantity{"0.1Ki", "102400000000", "102400m"},
        ValidQuantity{"0.001Ki", "1024000000", "1024m"},
        ValidQuantity{"-1.5Gi", "-1610612736000000000", "-1610612736"},
        // Exponents.
        ValidQuantity{"1e3", "1000000000000", "1k"}, ValidQuantity{"1E3", "1000000000000", "1k"},
        ValidQuantity{"1e+3", "1000000000000", "1k"}, ValidQuantity{"1e-3", "1000000", "1m"},
        ValidQuantity{"1E-3", "1000000", "1m"}, ValidQuantity{"1e0", "1000000000", "1"},
        ValidQuantity{"1.5e3", "1500000000000", "1500"},
        ValidQuantity{"15e-1", "1500000000", "1500m"},
        ValidQuantity{"1e18", "1000000000000000000000000000", "1E"},
        ValidQuantity{"-1e-9", "-1", "-1n"},
        // Rounding below 1n: away from zero, as Kubernetes does.
        ValidQuantity{"1e-9", "1", "1n"}, ValidQuantity{"1e-10", "1", "1n"},
        ValidQuantity{"-1e-10", "-1", "-1n"}, ValidQuantity{"1.5n", "2", "2n"},
        ValidQuantity{"-1.5n", "-2", "-2n"}, ValidQuantity{"1.1n", "2", "2n"},
        ValidQuantity{"0.5e-9", "1", "1n"},
        ValidQuantity{"1.0000000001", "1000000001", "1000000001n"},
        ValidQuantity{"0.0000000001Ki", "103", "103n"}, ValidQuantity{"1e-1000", "1", "1n"},
        ValidQuantity{"-1e-9223372036854775807", "-1", "-1n"},
        ValidQuantity{"123456789012345678901234567890e-30", "123456790", "123456790n"},
        // The int64 range of whole units, exactly.
        ValidQuantity{"9223372036854775807", "9223372036854775807000000000", "9223372036854775807"},
        ValidQuantity{"-9223372036854775808", "-9223372036854775808000000000",
                      "-9223372036854775808"},
        ValidQuantity{"9.223372036854775807E", "9223372036854775807000000000",
                      "9223372036854775807"},
        ValidQuantity{"7Ei", "8070450532247928832000000000", "8070450532247928832"},
        ValidQuantity{"7.99Ei", "9211842821808707338240000000", "9211842821808707338240m"},
        ValidQuantity{"8191Pi", "9222246136947933184000000000", "9222246136947933184"},
        ValidQuantity{"-8Ei", "-9223372036854775808000000000", "-9223372036854775808"},
        ValidQuantity{"9223372036854775807.000000000", "9223372036854775807000000000",
                      "9223372036854775807"},
        ValidQuantity{"0000000000000000000000000000000000001", "1000000000", "1"}));

// ---- Invalid inputs: kParseError naming the input and the problem ----

struct InvalidQuantity {
  const char* input;
  const char* message_part;
};

void PrintTo(const InvalidQuantity& c, std::ostream* os) { *os << '"' << c.input << '"'; }

class QuantityInvalidTest : public ::testing::TestWithParam<InvalidQuantity> {};

TEST_P(QuantityInvalidTest, ReportsParseError) {
  const InvalidQuantity& c = GetParam();
  auto q = Quantity::Parse(c.input);
  ASSERT_FALSE(q.ok()) << "parsed as " << q->ToString();
  EXPECT_EQ(q.status().code(), StatusCode::kParseError);
  EXPECT_NE(q.status().message().find(c.message_part), std::string::npos) << q.status().message();
  std::string quoted_input = std::string("\"") + c.input + "\"";
  if (quoted_input.find_first_of("\t\n") == std::string::npos) {
    EXPECT_NE(q.status().message().find(quoted_input), std::string::npos) << q.status().message();
  }
}

INSTANTIATE_TEST_SUITE_P(
    QuantityCases, QuantityInvalidTest,
    ::testing::Values(
        InvalidQuantity{"", "empty"},
        // Whitespace anywhere.
        InvalidQuantity{" ", "whitespace"}, InvalidQuantity{" 1", "whitespace"},
        InvalidQuantity{"1 ", "whitespace"}, InvalidQuantity{"1 Ki", "whitespace"},
        InvalidQuantity{"\t1", "whitespace"}, InvalidQuantity{"1\n", "whitespace"},
        // No digits (Kubernetes accepts some of these as 0; we do not).
        InvalidQuantity{"-", "at least one digit"}, InvalidQuantity{"+", "at least one digit"},
        InvalidQuantity{".", "at least one digit"}, InvalidQuantity{"-.", "at least one digit"},
        InvalidQuantity{"+.k", "at least one digit"}, InvalidQuantity{"Ki", "at least one digit"},
        InvalidQuantity{"e3", "at least one digit"}, InvalidQuantity{"abc", "at least one digit"},
        InvalidQuantity{"--1", "at least one digit"}, InvalidQuantity{"+-1", "at least one digit"},
        // Decimal points.
        InvalidQuantity{"1..2", "more than one decimal point"},
        InvalidQuantity{"1.2.3", "more than one decimal point"},
        InvalidQuantity{"..5", "more than one decimal point"},
        // Suffixes.
        InvalidQuantity{"1KB", "unknown suffix \"KB\""}, InvalidQuantity{"1gi", "unknown suffix"},
        InvalidQuantity{"1K", "unknown suffix"}, InvalidQuantity{"1i", "unknown suffix"},
        InvalidQuantity{"1k3", "unknown suffix"}, InvalidQuantity{"1Mi3", "unknown suffix"},
        InvalidQuantity{"1-", "unknown suffix"}, InvalidQuantity{"1,5", "unknown suffix"},
        InvalidQuantity{"1_000", "unknown suffix"}, InvalidQuantity{"0x10", "unknown suffix"},
        InvalidQuantity{"1kk", "unknown suffix"}, InvalidQuantity{"1mi", "unknown suffix"},
        // Exponents.
        InvalidQuantity{"1e", "invalid exponent"}, InvalidQuantity{"1e+", "invalid exponent"},
        InvalidQuantity{"1E-", "invalid exponent"}, InvalidQuantity{"1ee3", "invalid exponent"},
        InvalidQuantity{"1e3.5", "invalid exponent"}, InvalidQuantity{"1e3k", "invalid exponent"},
        InvalidQuantity{"1e+-3", "invalid exponent"}, InvalidQuantity{"1Ex", "invalid exponent"},
        InvalidQuantity{"1e9223372036854775808",
                        "exponent \"e9223372036854775808\" is out of range"},
        InvalidQuantity{"0e99999999999999999999", "out of range"},
        // Beyond the int64 range of whole units.
        InvalidQuantity{"9223372036854775808", "out of range"},
        InvalidQuantity{"-9223372036854775809", "out of range"},
        InvalidQuantity{"9223372036854775807.5", "out of range"},
        InvalidQuantity{"9223372036854775807.0000000001", "out of range"},
        InvalidQuantity{"-9223372036854775808.0000000001", "out of range"},
        InvalidQuantity{"9.223372036854775808E", "out of range"},
        InvalidQuantity{"8Ei", "out of range"}, InvalidQuantity{"9Ei", "out of range"},
        InvalidQuantity{"-8.0000000001Ei", "out of range"},
        InvalidQuantity{"8192Pi", "out of range"}, InvalidQuantity{"10E", "out of range"},
        InvalidQuantity{"1e19", "out of range"}, InvalidQuantity{"1e4294967296", "out of range"},
        InvalidQuantity{"1e9223372036854775807", "out of range"},
        InvalidQuantity{"100000000000000000000000000000", "out of range"},
        InvalidQuantity{"1000000000000000000000000000000000000000000000000Ei", "out of range"}));

TEST(QuantityTest, RejectsControlAndNonAsciiBytesAndEscapesThemInTheMessage) {
  for (std::string input : {std::string("1\0", 2),
                            std::string("\0"
                                        "1",
                                        2),
                            std::string("1\xff"), std::string("\xef\xbc\x91")}) {
    auto q = Quantity::Parse(input);
    ASSERT_FALSE(q.ok()) << input;
    EXPECT_EQ(q.status().code(), StatusCode::kParseError);
    EXPECT_NE(q.status().message().find("\\x"), std::string::npos) << q.status().message();
  }
}

TEST(QuantityTest, LongInputsAreTruncatedInMessages) {
  std::string input(10000, '9');
  auto q = Quantity::Parse(input);
  ASSERT_FALSE(q.ok());
  EXPECT_LT(q.status().message().size(), 200u) << q.status().message();
}

TEST(QuantityTest, LongFractionsParseExactly) {
  std::string input = "0." + std::string(5000, '0') + "1Ki";
  EXPECT_EQ(Q(input).nanos(), 1);
  EXPECT_EQ(Q("1." + std::string(5000, '0')).nanos(), 1'000'000'000);
  EXPECT_EQ(Q("0.000000000" + std::string(5000, '0')), Quantity());
}

// ---- Comparison ----

struct Ordered {
  const char* a;
  const char* b;
  int expected;  // sign of a - b
};

void PrintTo(const Ordered& c, std::ostream* os) { *os << c.a << " vs " << c.b; }

class QuantityCompareTest : public ::testing::TestWithParam<Ordered> {};

TEST_P(QuantityCompareTest, ComparesExactly) {
  const Ordered& c = GetParam();
  Quantity a = Q(c.a), b = Q(c.b);
  EXPECT_EQ(a.Compare(b), c.expected);
  EXPECT_EQ(b.Compare(a), -c.expected);
  EXPECT_EQ(a == b, c.expected == 0);
  EXPECT_EQ(a != b, c.expected != 0);
  EXPECT_EQ(a < b, c.expected < 0);
  EXPECT_EQ(a <= b, c.expected <= 0);
  EXPECT_EQ(a > b, c.expected > 0);
  EXPECT_EQ(a >= b, c.expected >= 0);
}

INSTANTIATE_TEST_SUITE_P(
    QuantityCases, QuantityCompareTest,
    ::testing::Values(Ordered{"1e3", "1k", 0}, Ordered{"1024", "1Ki", 0}, Ordered{"0.5", "500m", 0},
                      Ordered{"1Gi", "1G", 1}, Ordered{"100m", "0.1", 0},
                      Ordered{"1.5Gi", "1536Mi", 0}, Ordered{"1m", "1", -1},
                      Ordered{"999m", "1", -1}, Ordered{"-1", "0", -1}, Ordered{"1n", "0", 1},
                      Ordered{"1Ei", "1E", 1}, Ordered{"-1Ki", "-1k", -1}, Ordered{"-0", "0", 0},
                      Ordered{"1e-10", "1n", 0},
                      Ordered{"9223372036854775807", "9223372036854775806999999999n", 1},
                      Ordered{"-8Ei", "-9223372036854775807", -1}, Ordered{"1000000001n", "1", 1}));

// ---- Accessors ----

TEST(QuantityTest, AsInt64OnlyForWholeUnits) {
  EXPECT_EQ(Q("5").AsInt64(), 5);
  EXPECT_EQ(Q("1Ki").AsInt64(), 1024);
  EXPECT_EQ(Q("2000m").AsInt64(), 2);
  EXPECT_EQ(Q("-3k").AsInt64(), -3000);
  EXPECT_EQ(Q("0").AsInt64(), 0);
  EXPECT_EQ(Q("9223372036854775807").AsInt64(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Q("-8Ei").AsInt64(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Q("1.5").AsInt64(), std::nullopt);
  EXPECT_EQ(Q("1n").AsInt64(), std::nullopt);
  EXPECT_EQ(Q("-1500m").AsInt64(), std::nullopt);
}

TEST(QuantityTest, AsApproximateDouble) {
  EXPECT_DOUBLE_EQ(Q("1.5").AsApproximateDouble(), 1.5);
  EXPECT_DOUBLE_EQ(Q("-1.25").AsApproximateDouble(), -1.25);
  EXPECT_DOUBLE_EQ(Q("1n").AsApproximateDouble(), 1e-9);
  EXPECT_DOUBLE_EQ(Q("1Gi").AsApproximateDouble(), 1073741824.0);
  EXPECT_DOUBLE_EQ(Q("9223372036854775807").AsApproximateDouble(), 9223372036854775807.0);
  EXPECT_DOUBLE_EQ(Q("-8Ei").AsApproximateDouble(), -9223372036854775808.0);
  EXPECT_DOUBLE_EQ(Q("0").AsApproximateDouble(), 0.0);
}

TEST(QuantityTest, SignAndZero) {
  EXPECT_TRUE(Quantity().IsZero());
  EXPECT_EQ(Quantity(), Q("0"));
  EXPECT_TRUE(Q("-0").IsZero());
  EXPECT_EQ(Q("-0").Sign(), 0);
  EXPECT_EQ(Q("-0").ToString(), "0");
  EXPECT_EQ(Q("-1n").Sign(), -1);
  EXPECT_EQ(Q("1e-10").Sign(), 1);
  EXPECT_FALSE(Q("1e-10").IsZero()) << "tiny values round up, never to zero";
}

TEST(QuantityTest, FromInt64) {
  EXPECT_EQ(Quantity::FromInt64(1024), Q("1Ki"));
  EXPECT_EQ(Quantity::FromInt64(std::numeric_limits<int64_t>::min()), Q("-8Ei"));
  EXPECT_EQ(Quantity::FromInt64(std::numeric_limits<int64_t>::max()).ToString(),
            "9223372036854775807");
  EXPECT_EQ(Quantity::FromInt64(-7).AsInt64(), -7);
}

// ---- Arithmetic ----

TEST(QuantityTest, AddAndSubAreExact) {
  EXPECT_EQ(*Q("1").Add(Q("500m")), Q("1500m"));
  EXPECT_EQ(*Q("1Ki").Sub(Q("1k")), Q("24"));
  EXPECT_EQ(*Q("1n").Sub(Q("2n")), Q("-1n"));
  EXPECT_EQ(*Q("7Ei").Add(Q("1Ei").Sub(Q("1")).value()), Q("9223372036854775807"));
  EXPECT_EQ(*Q("-8Ei").Add(Q("9223372036854775807")), Q("-1"));
  EXPECT_TRUE(Q("1.5").Sub(Q("1.5"))->IsZero());
}

TEST(QuantityTest, AddAndSubReportOverflow) {
  Quantity max = Quantity::FromInt64(std::numeric_limits<int64_t>::max());
  Quantity min = Quantity::FromInt64(std::numeric_limits<int64_t>::min());
  auto too_big = max.Add(Q("1n"));
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(too_big.status().message().find("overflow"), std::string::npos);
  EXPECT_FALSE(min.Sub(Q("1n")).ok());
  EXPECT_FALSE(Quantity().Sub(min).ok()) << "-(-2^63) does not fit";
  EXPECT_FALSE(max.Add(max).ok());
  EXPECT_FALSE(min.Add(min).ok());
  EXPECT_TRUE(max.Add(min).ok());
  EXPECT_EQ(*max.Add(min), Q("-1"));
}

// ---- Canonical form ----

TEST(QuantityTest, ToStringPicksTheLargestExactDecimalSuffix) {
  EXPECT_EQ(Q("1000k").ToString(), "1M");
  EXPECT_EQ(Q("1001k").ToString(), "1001k");
  EXPECT_EQ(Q("0.001").ToString(), "1m");
  EXPECT_EQ(Q("0.0015").ToString(), "1500u");
  EXPECT_EQ(Q("12.345678").ToString(), "12345678u");
  EXPECT_EQ(Q("-1Ki").ToString(), "-1024");
  EXPECT_EQ(Q("9E").ToString(), "9E");
  EXPECT_EQ(Q("-9223372036854775.808k").ToString(), "-9223372036854775808");
}

TEST(QuantityTest, RoundTripsEveryNanoScaleOfInterestingValues) {
  std::vector<int64_t> mantissas = {
      1, -1, 7, 999, 1000, 1001, 123456789, -987654321, 1 << 30, 1LL << 33, 999999999, 1000000000};
  for (int64_t mantissa : mantissas) {
    for (int exponent = -9; exponent <= 9; ++exponent) {
      std::string text = std::to_string(mantissa) + "e" + std::to_string(exponent);
      auto q = Quantity::Parse(text);
      ASSERT_TRUE(q.ok()) << text << ": " << q.status().ToString();
      auto again = Quantity::Parse(q->ToString());
      ASSERT_TRUE(again.ok()) << q->ToString();
      EXPECT_EQ(*again, *q) << text << " -> " << q->ToString();
    }
  }
}

}  // namespace
// Stored as two 64-bit halves: the sign and magnitude survive at both ends
// of the range and across the halves' boundary.
TEST(QuantityTest, KeepsExactNanosAcrossTheHalves) {
  EXPECT_EQ(Quantity::Parse("-1n")->nanos(), -1);
  EXPECT_EQ(Quantity::Parse("1n")->nanos(), 1);
  __int128 min_units = static_cast<__int128>(INT64_MIN) * 1'000'000'000;
  EXPECT_EQ(Quantity::Parse("-8Ei")->nanos(), min_units);
  EXPECT_EQ(Quantity::FromInt64(INT64_MAX).nanos(),
            static_cast<__int128>(INT64_MAX) * 1'000'000'000);
  EXPECT_EQ(Quantity::Parse("18446744073709551616n")->nanos(), static_cast<__int128>(1) << 64);
  EXPECT_LT(*Quantity::Parse("-18446744073709551616n"), *Quantity::Parse("-1n"));
  EXPECT_TRUE(Quantity::Parse("0")->IsZero());
  EXPECT_FALSE(Quantity::Parse("-18446744073709551616n")->IsZero());
  EXPECT_EQ(Quantity::Parse("-18446744073709551616n")->Sign(), -1);
  EXPECT_EQ(alignof(Quantity), 8u);
}

}  // namespace kube
