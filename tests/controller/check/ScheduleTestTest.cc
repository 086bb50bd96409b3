#include <gtest/gtest.h>

#include "controller/check/ScheduleTest.h"

namespace dra::check {
namespace {

using nlohmann::json;
using Outcome = CheckResult::Outcome;

TEST(ScheduleTestTest, ExtendedResourcePodAsksForOneAndIsLabelled) {
  json pod = ScheduleTest::ExtendedResourcePod("example.com/gpu");
  EXPECT_EQ(pod["metadata"]["labels"][ScheduleTest::kLabel], "true");
  EXPECT_EQ(pod["spec"]["containers"][0]["resources"]["limits"]["example.com/gpu"], "1");
  EXPECT_EQ(pod["spec"]["terminationGracePeriodSeconds"], 0);
  // Pod Security "restricted"
  EXPECT_EQ(pod["spec"]["securityContext"]["runAsNonRoot"], true);
  EXPECT_EQ(pod["spec"]["securityContext"]["seccompProfile"]["type"], "RuntimeDefault");
  const auto& container = pod["spec"]["containers"][0]["securityContext"];
  EXPECT_EQ(container["allowPrivilegeEscalation"], false);
  EXPECT_EQ(container["capabilities"]["drop"][0], "ALL");
}

TEST(ScheduleTestTest, ClaimPodUsesTheNamedClaim) {
  json claim = ScheduleTest::Claim("gpu.example.com");
  EXPECT_EQ(claim["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"],
            "gpu.example.com");
  EXPECT_EQ(claim["metadata"]["labels"][ScheduleTest::kLabel], "true");
  json pod = ScheduleTest::ClaimPod("gpu.example.com", "check-schedule-dc-x");
  EXPECT_EQ(pod["spec"]["resourceClaims"][0]["resourceClaimName"], "check-schedule-dc-x");
  EXPECT_EQ(pod["spec"]["containers"][0]["resources"]["claims"][0]["name"],
            pod["spec"]["resourceClaims"][0]["name"]);
}

TEST(ScheduleTestTest, VerdictFromPodScheduledCondition) {
  json pending = {{"status", {{"phase", "Pending"}}}};
  EXPECT_FALSE(ScheduleTest::ParseVerdict("r", pending).has_value());
  json bound = {{"spec", {{"nodeName", "node-a"}}},
                {"status", {{"conditions", {{{"type", "PodScheduled"}, {"status", "True"}}}}}}};
  auto ok = ScheduleTest::ParseVerdict("r", bound);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->outcome, Outcome::kPass);
  EXPECT_EQ(ok->detail, "scheduled to node-a");
  json refused = {{"status",
                   {{"conditions",
                     {{{"type", "PodScheduled"},
                       {"status", "False"},
                       {"reason", "Unschedulable"},
                       {"message", "0/2 nodes are available"}}}}}}};
  auto no = ScheduleTest::ParseVerdict("r", refused);
  ASSERT_TRUE(no.has_value());
  EXPECT_EQ(no->outcome, Outcome::kFail);
  EXPECT_EQ(no->detail, "Unschedulable: 0/2 nodes are available");
}

TEST(ScheduleTestTest, OddFieldTypesThrowTheLibraryExceptionCaughtByTheCaller) {
  json odd = {{"status", {{"conditions", {{{"type", 7}}}}}}};
  EXPECT_THROW(ScheduleTest::ParseVerdict("r", odd), json::exception);
}

}  // namespace
}  // namespace dra::check
