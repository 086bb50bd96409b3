#include <gtest/gtest.h>

#include <set>

#include "src/base/Jitter.h"

namespace dra::testing {
namespace {

using std::chrono::milliseconds;

TEST(JitterTest, StaysWithinBaseAndBaseTimesOnePlusFactor) {
  std::set<long> seen;
  for (int i = 0; i < 1000; ++i) {
    milliseconds d = kube::Jitter(milliseconds(1000), 0.5);
    ASSERT_GE(d.count(), 1000);
    ASSERT_LT(d.count(), 1500);
    seen.insert(d.count());
  }
  EXPECT_GT(seen.size(), 100u) << "delays must actually vary";
}

TEST(JitterTest, ZeroFactorOrZeroBaseIsExact) {
  EXPECT_EQ(kube::Jitter(milliseconds(800), 0.0), milliseconds(800));
  EXPECT_EQ(kube::Jitter(milliseconds(0), 1.0), milliseconds(0));
}

}  // namespace
}  // namespace dra::testing
