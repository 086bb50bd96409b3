#include <gtest/gtest.h>

#include "controller/check/ClaimChecks.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::check {
namespace {

using Outcome = CheckResult::Outcome;

TEST(ClaimChecksTest, ReadyFalseConditionFails) {
  CheckInputs in;
  in.claim_conditions.Set({{"ns/a", "gpu.example.com/node-a/gpu-0", "Ready", "True", ""}});
  EXPECT_EQ(ClaimChecks::DeviceConditions(in).outcome, Outcome::kPass);
  in.claim_conditions.value.push_back(
      {"ns/b", "gpu.example.com/node-a/gpu-1", "Ready", "False", "DriverError"});
  in.claim_conditions.value.push_back({"ns/c", "x/y/z", "Other", "False", ""});
  auto r = ClaimChecks::DeviceConditions(in);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.detail, "not ready: ns/b gpu.example.com/node-a/gpu-1 Ready=False (DriverError)");
}

TEST(ClaimChecksTest, UnreadableClaimsFail) {
  CheckInputs in;
  in.claim_conditions.error = "forbidden";
  EXPECT_EQ(ClaimChecks::DeviceConditions(in).outcome, Outcome::kFail);
}

TEST(ClaimChecksTest, AllocatedClaimWithoutRunningConsumerWarns) {
  report::ClusterSnapshot s;
  s.claims.push_back(dra::testing::Claim("ns", "used", {{"node-a", "gpu-0"}}, {"runner"}));
  s.claims.push_back(dra::testing::Claim("ns", "pending", {{"node-a", "gpu-1"}}, {"waiter"}));
  s.claims.push_back(dra::testing::Claim("ns", "unallocated", {}));
  auto runner = std::make_shared<api::PodView>();
  runner->meta.uid = "runner-uid";
  runner->phase = "Running";
  auto waiter = std::make_shared<api::PodView>();
  waiter->meta.uid = "waiter-uid";
  waiter->phase = "Pending";
  s.pods = {runner, waiter};
  auto r = ClaimChecks::Reservations(s);
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_EQ(r.detail, "1 of 2 allocated claims have no running consumer: ns/pending");
  s.claims.pop_back();
  s.claims.pop_back();
  EXPECT_EQ(ClaimChecks::Reservations(s).outcome, Outcome::kPass);
}

}  // namespace
}  // namespace dra::check
