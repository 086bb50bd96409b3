#include <gtest/gtest.h>

#include "controller/metrics/ExpositionCache.h"

namespace dra::metrics {
namespace {

TEST(ExpositionCacheTest, EmptyUntilStoredThenTheLatestText) {
  ExpositionCache cache;
  EXPECT_EQ(cache.Load(), nullptr);
  cache.Store("a 1\n");
  auto first = cache.Load();
  ASSERT_NE(first, nullptr);
  cache.Store("a 2\n");
  EXPECT_EQ(*cache.Load(), "a 2\n");
  EXPECT_EQ(*first, "a 1\n");  // a scrape in flight keeps the text it took
}

}  // namespace
}  // namespace dra::metrics
