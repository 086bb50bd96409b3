#include <gtest/gtest.h>

#include <map>
#include <string>

#include "controller/feature/FeatureStates.h"

namespace dra::feature {
namespace {

// feature -> "reason=value" of every exported series.
std::multimap<std::string, std::string> Exported(prometheus::Registry& registry) {
  std::multimap<std::string, std::string> out;
  for (const auto& family : registry.Collect()) {
    if (family.name != "dra_controller_feature_enabled") continue;
    for (const auto& metric : family.metric) {
      std::string feature, reason;
      for (const auto& label : metric.label) {
        if (label.name == "feature") feature = label.value;
        if (label.name == "reason") reason = label.value;
      }
      out.emplace(feature, reason + "=" + std::to_string(static_cast<int>(metric.gauge.value)));
    }
  }
  return out;
}

TEST(FeatureStatesTest, ExportsOneSeriesPerFeatureWithItsReason) {
  auto registry = std::make_shared<prometheus::Registry>();
  FeatureStates states(registry);
  states.On("device-health", "Enforced");
  states.Off("kubelet-health-reports", "TurnedOff");
  auto exported = Exported(*registry);
  EXPECT_EQ(exported,
            (std::multimap<std::string, std::string>{{"device-health", "Enforced=1"},
                                                     {"kubelet-health-reports", "TurnedOff=0"}}));
}

TEST(FeatureStatesTest, ALaterReportReplacesTheEarlierSeries) {
  auto registry = std::make_shared<prometheus::Registry>();
  FeatureStates states(registry);
  states.On("device-health", "Enforced");
  states.Off("device-health", "TaintRulesNotServed");
  EXPECT_EQ(Exported(*registry),
            (std::multimap<std::string, std::string>{{"device-health", "TaintRulesNotServed=0"}}));
  auto state = states.Get("device-health");
  ASSERT_TRUE(state.has_value());
  EXPECT_FALSE(state->enabled);
  EXPECT_EQ(state->reason, "TaintRulesNotServed");
  EXPECT_FALSE(states.Get("extended-resources").has_value());
}

TEST(FeatureStatesTest, KeepsStatesWithoutARegistry) {
  FeatureStates states(nullptr);
  states.On("allocation-metrics", "Wired");
  ASSERT_TRUE(states.Get("allocation-metrics").has_value());
  EXPECT_TRUE(states.Get("allocation-metrics")->enabled);
}

}  // namespace
}  // namespace dra::feature
