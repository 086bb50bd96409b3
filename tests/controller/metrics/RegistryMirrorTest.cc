#include <gtest/gtest.h>
#include <prometheus/counter.h>
#include <prometheus/text_serializer.h>

#include "controller/metrics/GaugeTable.h"
#include "controller/metrics/RegistryMirror.h"

namespace dra::metrics {
namespace {

// A source whose series the test edits between refreshes.
class FakeSource : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override {
    if (!present) return {};
    GaugeTable table("test_devices", "devices", {"node"});
    for (const auto& [node, value] : values) table.Set({node}, value);
    return {table.Build()};
  }
  std::map<std::string, double> values;
  bool present = true;
};

std::string Serialize(prometheus::Registry& registry) {
  return prometheus::TextSerializer().Serialize(registry.Collect());
}

TEST(RegistryMirrorTest, SetsSeriesAndRemovesTheOnesThatVanished) {
  auto registry = std::make_shared<prometheus::Registry>();
  auto source = std::make_shared<FakeSource>();
  RegistryMirror mirror(registry, source);
  source->values = {{"a", 2}, {"b", 3}};
  ASSERT_TRUE(mirror.Refresh().ok());
  std::string first = Serialize(*registry);
  EXPECT_NE(first.find("test_devices{node=\"a\"} 2"), std::string::npos) << first;
  EXPECT_NE(first.find("test_devices{node=\"b\"} 3"), std::string::npos) << first;

  source->values = {{"a", 1}};
  ASSERT_TRUE(mirror.Refresh().ok());
  std::string second = Serialize(*registry);
  EXPECT_NE(second.find("test_devices{node=\"a\"} 1"), std::string::npos) << second;
  EXPECT_EQ(second.find("node=\"b\""), std::string::npos) << second;

  source->present = false;
  ASSERT_TRUE(mirror.Refresh().ok());
  EXPECT_EQ(Serialize(*registry).find("node=\"a\""), std::string::npos);
}

TEST(RegistryMirrorTest, AFamilyNameTakenByAnotherTypeIsAnErrorNotACrash) {
  auto registry = std::make_shared<prometheus::Registry>();
  prometheus::BuildCounter().Name("test_devices").Register(*registry);
  auto source = std::make_shared<FakeSource>();
  source->values = {{"a", 1}};
  RegistryMirror mirror(registry, source);
  EXPECT_FALSE(mirror.Refresh().ok());
}

}  // namespace
}  // namespace dra::metrics
