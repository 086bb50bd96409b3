#include <gtest/gtest.h>

#include "controller/api/CounterSet.h"

namespace dra::api {
namespace {

simdjson::dom::element Parse(simdjson::dom::parser& parser, const std::string& json) {
  simdjson::dom::element element;
  EXPECT_EQ(parser.parse(json).get(element), simdjson::SUCCESS);
  return element;
}

TEST(CounterSetTest, ReadsNamedCountersAndSkipsInvalidValues) {
  simdjson::dom::parser parser;
  std::vector<std::string> warnings;
  auto set = CounterSet::FromJson(
      Parse(
          parser,
          std::string(
              R"({"counterSet":"gpu-0","counters":{"memory":{"value":"10Gi"},"sm":{"value":"x"}}})")),
      "counterSet", "spec.devices[0].consumesCounters[0]", warnings);
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->name, "gpu-0");
  ASSERT_NE(set->Find("memory"), nullptr);
  EXPECT_EQ(set->Find("sm"), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "spec.devices[0].consumesCounters[0].counters[sm]: invalid value; skipped");
  EXPECT_FALSE(
      CounterSet::FromJson(Parse(parser, std::string(R"({"counters":{}})")), "name", "x", warnings)
          .ok());
}

}  // namespace
}  // namespace dra::api
