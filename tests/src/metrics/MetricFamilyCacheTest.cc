#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <memory>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

using Registry = prometheus::Registry;

TEST(MetricFamilyCacheTest, RegistersAFamilyOncePerRegistry) {
  auto registry = std::make_shared<Registry>(Registry::InsertBehavior::Throw);
  auto first = MetricFamilyCache::Counter(registry, "things_total", "Things.", {"queue"});
  auto second = MetricFamilyCache::Counter(registry, "things_total", "Things.", {"queue"});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(*first, *second);
  (*first)->Add({{"queue", "one"}});
  (*second)->Add({{"queue", "two"}});
  const auto collected = registry->Collect();
  ASSERT_EQ(collected.size(), 1u);
  EXPECT_EQ(collected[0].metric.size(), 2u);
}

TEST(MetricFamilyCacheTest, KeepsRegistriesApart) {
  auto one = std::make_shared<Registry>();
  auto two = std::make_shared<Registry>();
  auto first = MetricFamilyCache::Gauge(one, "level", "Level.", {});
  auto second = MetricFamilyCache::Gauge(two, "level", "Level.", {});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_NE(*first, *second);
}

TEST(MetricFamilyCacheTest, ANewRegistryStartsEmpty) {
  for (int i = 0; i < 3; ++i) {
    // Successive registries may reuse an address; each still gets its own family.
    auto registry = std::make_shared<Registry>(Registry::InsertBehavior::Throw);
    auto family = MetricFamilyCache::Histogram(registry, "latency_seconds", "Latency.", {});
    ASSERT_TRUE(family.ok()) << family.status().ToString();
    (*family)->Add({}, prometheus::Histogram::BucketBoundaries{1.0}).Observe(0.5);
    EXPECT_EQ(registry->Collect().size(), 1u);
  }
}

TEST(MetricFamilyCacheTest, SameNameWithAnotherTypeIsAnError) {
  auto registry = std::make_shared<Registry>();
  ASSERT_TRUE(MetricFamilyCache::Counter(registry, "x", "X.", {}).ok());
  auto gauge = MetricFamilyCache::Gauge(registry, "x", "X.", {});
  ASSERT_FALSE(gauge.ok());
  EXPECT_EQ(gauge.status().code(), StatusCode::kAlreadyExists);
}

TEST(MetricFamilyCacheTest, ConflictOutsideTheCacheIsAnErrorNotAnException) {
  auto registry = std::make_shared<Registry>(Registry::InsertBehavior::Throw);
  prometheus::BuildCounter().Name("taken_total").Help("Taken.").Register(*registry);
  auto family = MetricFamilyCache::Counter(registry, "taken_total", "Taken.", {});
  ASSERT_FALSE(family.ok());
  EXPECT_EQ(family.status().code(), StatusCode::kAlreadyExists);
}

TEST(MetricFamilyCacheTest, NullRegistryIsAnError) {
  auto family = MetricFamilyCache::Counter(nullptr, "x", "X.", {});
  ASSERT_FALSE(family.ok());
  EXPECT_EQ(family.status().code(), StatusCode::kInvalidArgument);
}

TEST(MetricFamilyCacheTest, SameNameWithOtherLabelNamesIsAnError) {
  auto registry = std::make_shared<Registry>();
  ASSERT_TRUE(MetricFamilyCache::Counter(registry, "y_total", "Y.", {"a"}).ok());
  auto other = MetricFamilyCache::Counter(registry, "y_total", "Y.", {"b"});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), StatusCode::kAlreadyExists);
}

TEST(MetricFamilyCacheTest, DescribeListsEveryFamilyByNameBeforeAnySeriesExists) {
  auto registry = std::make_shared<Registry>();
  ASSERT_TRUE(MetricFamilyCache::Histogram(registry, "b_seconds", "B.", {"verb"}).ok());
  ASSERT_TRUE(MetricFamilyCache::Counter(registry, "a_total", "A.", {"code", "method"}).ok());
  auto described = MetricFamilyCache::Describe(registry);
  ASSERT_EQ(described.size(), 2u);
  EXPECT_EQ(described[0].name, "a_total");
  EXPECT_EQ(described[0].type, "counter");
  EXPECT_EQ(described[0].help, "A.");
  EXPECT_EQ(described[0].labels, (MetricFamilyCache::LabelNames{"code", "method"}));
  EXPECT_EQ(described[1].name, "b_seconds");
  EXPECT_EQ(described[1].type, "histogram");
  EXPECT_TRUE(MetricFamilyCache::Describe(std::make_shared<Registry>()).empty());
}

TEST(MetricFamilyCacheTest, CheckLabelsNamesASeriesWhoseLabelsDifferFromTheDeclaredOnes) {
  auto registry = std::make_shared<Registry>();
  auto family = MetricFamilyCache::Counter(registry, "c_total", "C.", {"code"});
  ASSERT_TRUE(family.ok());
  (*family)->Add({{"code", "200"}});
  EXPECT_TRUE(MetricFamilyCache::CheckLabels(registry).ok());
  (*family)->Add({{"code", "500"}, {"host", "h"}});
  Status checked = MetricFamilyCache::CheckLabels(registry);
  ASSERT_FALSE(checked.ok());
  EXPECT_NE(checked.message().find("c_total has a series labelled {code,host}, declared {code}"),
            std::string::npos)
      << checked.message();
}

TEST(MetricFamilyCacheTest, CheckLabelsNamesAFamilyRegisteredAroundTheCache) {
  auto registry = std::make_shared<Registry>();
  prometheus::BuildGauge().Name("direct").Help("D.").Register(*registry).Add({}).Set(1);
  Status checked = MetricFamilyCache::CheckLabels(registry);
  ASSERT_FALSE(checked.ok());
  EXPECT_NE(checked.message().find("direct was registered without declaring its labels"),
            std::string::npos);
}

}  // namespace
}  // namespace kube
