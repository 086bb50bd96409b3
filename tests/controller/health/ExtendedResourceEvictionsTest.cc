#include <gtest/gtest.h>

#include "controller/health/ExtendedResourceEvictions.h"

namespace dra::health {
namespace {

using Mode = HealthOptions::SelfEviction;

TEST(ExtendedResourceEvictionsTest, AutoEvictsWhereTheClusterDoesNot) {
  for (const char* version : {"v1.34.4", "v1.35.4", "v1.36.3", "v1.36.3-gke.100"}) {
    auto decision = ExtendedResourceEvictions::Decide(Mode::kAuto, version);
    EXPECT_TRUE(decision.evict) << version;
    EXPECT_EQ(decision.reason, "ClusterDoesNotEvict");
    EXPECT_NE(decision.why.find(version), std::string::npos) << decision.why;
  }
}

TEST(ExtendedResourceEvictionsTest, AutoOn137DoesNothingAndSaysSo) {
  for (const char* version : {"v1.37.2", "v1.38.0"}) {
    auto decision = ExtendedResourceEvictions::Decide(Mode::kAuto, version);
    EXPECT_FALSE(decision.evict) << version;
    EXPECT_EQ(decision.reason, "ClusterEvicts");
    EXPECT_NE(decision.why.find("evicted by the cluster"), std::string::npos) << decision.why;
  }
}

TEST(ExtendedResourceEvictionsTest, OnAndOffOverrideTheVersion) {
  auto on = ExtendedResourceEvictions::Decide(Mode::kOn, "v1.37.2");
  EXPECT_TRUE(on.evict);
  EXPECT_EQ(on.reason, "TurnedOn");
  auto off = ExtendedResourceEvictions::Decide(Mode::kOff, "v1.36.3");
  EXPECT_FALSE(off.evict);
  EXPECT_EQ(off.reason, "TurnedOff");
}

TEST(ExtendedResourceEvictionsTest, AnUnknownVersionIsLeftToTheCluster) {
  auto decision = ExtendedResourceEvictions::Decide(Mode::kAuto, "weird");
  EXPECT_FALSE(decision.evict);
  EXPECT_EQ(decision.reason, "VersionUnknown");
  EXPECT_NE(decision.why.find("=on"), std::string::npos) << decision.why;
}

}  // namespace
}  // namespace dra::health
