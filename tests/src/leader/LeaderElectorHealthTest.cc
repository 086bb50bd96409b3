// The elector's accessors for a liveness check, on a FakeClock: the last
// renewal while leading, and the loop's heartbeat, which stops while a lease
// request hangs.
#include <gtest/gtest.h>

#include <memory>

#include "src/base/FakeClock.h"
#include "src/leader/LeaderElector.h"
#include "tests/support/LeaseStore.h"
#include "tests/support/LeaseStoreLock.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

class LeaderElectorHealthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kube::LeaderElectionConfig config;
    config.namespace_name = "default";
    config.name = "lock";
    config.identity = "me";
    config.lease_duration = 15s;
    config.renew_deadline = 10s;
    config.retry_period = 2s;
    config.clock = clock_;
    elector_ = std::make_unique<kube::LeaderElector>(lock_, config);
  }
  void TearDown() override {
    lock_->BlockWrites(false);
    elector_->Stop();
  }

  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>();
  std::shared_ptr<LeaseStore> store_ = std::make_shared<LeaseStore>();
  std::shared_ptr<LeaseStoreLock> lock_ = std::make_shared<LeaseStoreLock>(store_);
  std::unique_ptr<kube::LeaderElector> elector_;
};

TEST_F(LeaderElectorHealthTest, LastRenewalFollowsRenewalsWhileLeading) {
  auto t0 = clock_->Now();
  EXPECT_EQ(elector_->LastRenewal(), std::nullopt);
  EXPECT_FALSE(elector_->LoopRunning());
  ASSERT_TRUE(elector_->Start().ok());
  ASSERT_TRUE(WaitFor("leadership", 5s, [&] { return elector_->IsLeader(); }).ok());
  EXPECT_EQ(elector_->LastRenewal(), t0);
  EXPECT_TRUE(elector_->LoopRunning());
  for (int i = 1; i <= 3; ++i) {
    int writes = lock_->writes();
    ASSERT_TRUE(WaitFor("the renew wait", 5s, [&] { return clock_->NumWaiters() == 2; }).ok());
    clock_->Step(2s);
    ASSERT_TRUE(WaitFor("a renewal", 5s, [&] { return lock_->writes() > writes; }).ok());
    ASSERT_TRUE(WaitFor("the renewal recorded", 5s, [&] {
                  return elector_->LastRenewal() == t0 + i * 2s;
                }).ok());
    EXPECT_EQ(elector_->LoopHeartbeat(), t0 + i * 2s);
  }
  elector_->Stop();
  EXPECT_EQ(elector_->LastRenewal(), std::nullopt) << "not leading any more";
  EXPECT_FALSE(elector_->LoopRunning());
}

TEST_F(LeaderElectorHealthTest, HeartbeatStopsWhileALeaseRequestHangs) {
  auto t0 = clock_->Now();
  ASSERT_TRUE(elector_->Start().ok());
  ASSERT_TRUE(WaitFor("leadership", 5s, [&] { return elector_->IsLeader(); }).ok());
  lock_->BlockWrites(true);
  ASSERT_TRUE(WaitFor("the renew wait", 5s, [&] { return clock_->NumWaiters() == 2; }).ok());
  clock_->Step(2s);
  ASSERT_TRUE(WaitFor("a hung renewal", 5s, [&] { return lock_->blocked_writes() == 1; }).ok());
  clock_->Step(60s);
  EXPECT_EQ(elector_->LoopHeartbeat(), t0 + 2s) << "no progress while the request hangs";
  EXPECT_TRUE(elector_->LoopRunning());
  lock_->BlockWrites(false);
  ASSERT_TRUE(WaitFor("the loop to move on", 5s, [&] {
                return elector_->LoopHeartbeat() == t0 + 62s;
              }).ok());
}

}  // namespace
}  // namespace dra::testing
