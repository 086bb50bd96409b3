#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <memory>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

using Registry = prometheus::Registry;

TEST(MetricFamilyCacheTest, RegistersAFamilyOncePerRegistry) {
  auto registry = std::make_shared<Registry>(Registry::InsertBehavior::Throw);
  auto first = MetricFamilyCache::Counter(registry, "things_total", "Things.");
  auto second = MetricFamilyCache::Counter(registry, "things_total", "Things.");
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
  auto first = MetricFamilyCache::Gauge(one, "level", "Level.");
  auto second = MetricFamilyCache::Gauge(two, "level", "Level.");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_NE(*first, *second);
}

TEST(MetricFamilyCacheTest, ANewRegistryStartsEmpty) {
  for (int i = 0; i < 3; ++i) {
    // Successive registries may reuse an address; each still gets its own family.
    auto registry = std::make_shared<Registry>(Registry::InsertBehavior::Throw);
    auto family = MetricFamilyCache::Histogram(registry, "latency_seconds", "Latency.");
    ASSERT_TRUE(family.ok()) << family.status().ToString();
    (*family)->Add({}, prometheus::Histogram::BucketBoundaries{1.0}).Observe(0.5);
    EXPECT_EQ(registry->Collect().size(), 1u);
  }
}

TEST(MetricFamilyCacheTest, SameNameWithAnotherTypeIsAnError) {
  auto registry = std::make_shared<Registry>();
  ASSERT_TRUE(MetricFamilyCache::Counter(registry, "x", "X.").ok());
  auto gauge = MetricFamilyCache::Gauge(registry, "x", "X.");
  ASSERT_FALSE(gauge.ok());
  EXPECT_EQ(gauge.status().code(), StatusCode::kAlreadyExists);
}

TEST(MetricFamilyCacheTest, ConflictOutsideTheCacheIsAnErrorNotAnException) {
  auto registry = std::make_shared<Registry>(Registry::InsertBehavior::Throw);
  prometheus::BuildCounter().Name("taken_total").Help("Taken.").Register(*registry);
  auto family = MetricFamilyCache::Counter(registry, "taken_total", "Taken.");
  ASSERT_FALSE(family.ok());
  EXPECT_EQ(family.status().code(), StatusCode::kAlreadyExists);
}

TEST(MetricFamilyCacheTest, NullRegistryIsAnError) {
  auto family = MetricFamilyCache::Counter(nullptr, "x", "X.");
  ASSERT_FALSE(family.ok());
  EXPECT_EQ(family.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace kube
