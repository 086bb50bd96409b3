#include <gtest/gtest.h>

#include "controller/health/ExtendedResourceEvictions.h"

namespace dra::health {
namespace {

using Mode = HealthOptions::SelfEviction;

TEST(ExtendedResourceEvictionsTest, AutoEvictsWhereTheClusterDoesNot) {
  for (const char* version : {"v1.34.4", "v1.35.4", "v1.36.3", "v1.36.3-gke.100"}) {
    auto decision = ExtendedResourceEvictions::Decide(Mode::kAuto, version);
    EXPECT_TRUE(decision.evict) << version;
    EXPECT_NE(decision.why.find(version), std::string::npos) << decision.why;
  }
}

TEST(ExtendedResourceEvictionsTest, AutoOn137DoesNothingAndSaysSo) {
  for (const char* version : {"v1.37.2", "v1.38.0"}) {
    auto decision = ExtendedResourceEvictions::Decide(Mode::kAuto, version);
    EXPECT_FALSE(decision.evict) << version;
    EXPECT_NE(decision.why.find("evicted by the cluster"), std::string::npos) << decision.why;
  }
}

TEST(ExtendedResourceEvictionsTest, OnAndOffOverrideTheVersion) {
  EXPECT_TRUE(ExtendedResourceEvictions::Decide(Mode::kOn, "v1.37.2").evict);
  EXPECT_FALSE(ExtendedResourceEvictions::Decide(Mode::kOff, "v1.36.3").evict);
}

TEST(ExtendedResourceEvictionsTest, AnUnknownVersionIsLeftToTheCluster) {
  auto decision = ExtendedResourceEvictions::Decide(Mode::kAuto, "weird");
  EXPECT_FALSE(decision.evict);
  EXPECT_NE(decision.why.find("=on"), std::string::npos) << decision.why;
}

}  // namespace
}  // namespace dra::health
