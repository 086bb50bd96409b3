#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <sstream>

#include "controller/health/HealthMetrics.h"

namespace dra::health {
namespace {

class HealthMetricsTest : public ::testing::Test {
 protected:
  std::string Text() { return prometheus::TextSerializer().Serialize(registry_->Collect()); }
  // The tainted_devices series lines, e.g. `..{effect="NoSchedule",reason="A"} 1`.
  std::vector<std::string> TaintedSeries() {
    std::vector<std::string> lines;
    std::istringstream in(Text());
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("dra_controller_health_tainted_devices{", 0) == 0) lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    return lines;
  }

  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  HealthMetrics metrics_{registry_};
};

// Issue 38: every free-text spec.reason ever seen kept a series at 0, so the
// series grew with the reasons written over a process's life.
TEST_F(HealthMetricsTest, TaintedDevicesKeepsOnlySeriesInUse) {
  for (int i = 0; i < 50; ++i) {
    metrics_.Record("a", {"Degraded", "NoSchedule", "Reason" + std::to_string(i), 1, 0});
  }
  metrics_.Record("b", {"Unhealthy", "NoExecute", "XidError", 2, 0});
  EXPECT_EQ(
      TaintedSeries(),
      (std::vector<std::string>{
          R"(dra_controller_health_tainted_devices{effect="NoExecute",reason="XidError"} 2)",
          R"(dra_controller_health_tainted_devices{effect="NoSchedule",reason="Reason49"} 1)"}));
  metrics_.Forget("b");
  metrics_.Record("a", {"Healthy", "", "Recovered", 1, 0});
  EXPECT_TRUE(TaintedSeries().empty()) << Text();
  // The family and the state gauge stay: 0 is a value there, with 4 states.
  EXPECT_NE(Text().find("dra_controller_health_objects{state=\"Healthy\"} 1"), std::string::npos);
  EXPECT_NE(Text().find("dra_controller_health_objects{state=\"Unhealthy\"} 0"), std::string::npos);
}

}  // namespace
}  // namespace dra::health
