#include <gtest/gtest.h>

#include "controller/api/DeviceCapacity.h"

namespace dra::api {
namespace {

kube::Quantity Q(std::string_view text) { return *kube::Quantity::Parse(text); }

simdjson::dom::element Parse(simdjson::dom::parser& parser, const std::string& json) {
  simdjson::dom::element element;
  EXPECT_EQ(parser.parse(json).get(element), simdjson::SUCCESS);
  return element;
}

// The rules of consumable_capacity.go (calculateConsumedCapacity,
// roundUpRange, roundUpValidValues, violatesPolicy) in v1.37.2.
TEST(DeviceCapacityTest, NothingAskedTakesTheDefaultOrTheWholeCapacity) {
  EXPECT_EQ(CapacityPolicy::Consumption(nullptr, Q("80Gi"), std::nullopt), Q("80Gi"));
  CapacityPolicy policy;
  policy.default_value = Q("8Gi");
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("80Gi"), std::nullopt), Q("8Gi"));
}

TEST(DeviceCapacityTest, WithoutPolicyTheRequestIsTakenAsIs) {
  EXPECT_EQ(CapacityPolicy::Consumption(nullptr, Q("80Gi"), Q("3Gi")), Q("3Gi"));
}

TEST(DeviceCapacityTest, ValidRangeRoundsUpToMinAndStepsAndRejectsAboveMax) {
  CapacityPolicy policy;
  policy.min = Q("1Gi");
  policy.step = Q("1Gi");
  policy.max = Q("16Gi");
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("80Gi"), Q("100Mi")), Q("1Gi"));
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("80Gi"), Q("2500Mi")), Q("3Gi"));
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("80Gi"), Q("4Gi")), Q("4Gi"));
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("80Gi"), Q("17Gi")), std::nullopt);
  policy.step.reset();
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("80Gi"), Q("1500Mi")), Q("1500Mi"));
}

TEST(DeviceCapacityTest, ValidValuesRoundUpToTheNextAndRejectLargerRequests) {
  CapacityPolicy policy;
  policy.valid_values = {Q("10"), Q("20"), Q("40")};
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("100"), Q("15")), Q("20"));
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("100"), Q("40")), Q("40"));
  EXPECT_EQ(CapacityPolicy::Consumption(&policy, Q("100"), Q("41")), std::nullopt);
}

TEST(DeviceCapacityTest, ParsesAPolicyAndReportsBadQuantities) {
  simdjson::dom::parser parser;
  CapacityPolicy policy;
  EXPECT_TRUE(CapacityPolicy::FromJson(
      Parse(parser, std::string(R"({"default":"1","validValues":["4","2"]})")), policy));
  EXPECT_EQ(policy.default_value, Q("1"));
  EXPECT_EQ(policy.valid_values, (std::vector<kube::Quantity>{Q("2"), Q("4")}));
  CapacityPolicy bad;
  EXPECT_FALSE(
      CapacityPolicy::FromJson(Parse(parser, std::string(R"({"validRange":{"min":"x"}})")), bad));
}

}  // namespace
}  // namespace dra::api
