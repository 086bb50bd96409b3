#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <atomic>
#include <thread>

#include "src/base/FakeClock.h"
#include "src/http/HttpTransport.h"
#include "src/leader/LeaderElector.h"
#include "src/leader/LeaseLock.h"
#include "tests/support/LeaseStore.h"
#include "tests/support/LeaseStoreLock.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/SettlingClock.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

kube::LeaderElectionRecord HeldBy(const std::string& holder, int64_t seconds) {
  return {holder, seconds, "2026-01-01T00:00:00.000000Z", "2026-01-01T00:00:00.000000Z", 3, ""};
}

double MasterStatus(prometheus::Registry& registry) {
  for (const auto& family : registry.Collect()) {
    if (family.name != "leader_election_master_status") continue;
    for (const auto& metric : family.metric) return metric.gauge.value;
  }
  return -1;
}

class LeaderElectorTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (auto& lock : locks_) lock->BlockWrites(false);
    for (auto& elector : electors_) elector->Stop();
  }

  kube::LeaderElectionConfig Config(const std::string& identity) {
    kube::LeaderElectionConfig config;
    config.namespace_name = "default";
    config.name = "lock";
    config.identity = identity;
    config.lease_duration = 15s;
    config.renew_deadline = 10s;
    config.retry_period = 2s;
    config.clock = clock_;
    return config;
  }

  kube::LeaderElector& Start(kube::LeaderElectionConfig config,
                             std::shared_ptr<LeaseStoreLock>* lock_out = nullptr) {
    auto lock = std::make_shared<LeaseStoreLock>(store_);
    locks_.push_back(lock);
    if (lock_out != nullptr) *lock_out = lock;
    electors_.push_back(std::make_unique<kube::LeaderElector>(lock, std::move(config)));
    kube::Status started = electors_.back()->Start();
    EXPECT_TRUE(started.ok()) << started.ToString();
    return *electors_.back();
  }

  // Someone else takes the lease.
  void Seed(const kube::LeaderElectionRecord& record) {
    auto created = store_->Create(record);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  std::shared_ptr<SettlingClock> clock_ = std::make_shared<SettlingClock>();
  std::shared_ptr<LeaseStore> store_ = std::make_shared<LeaseStore>();
  std::vector<std::shared_ptr<LeaseStoreLock>> locks_;
  std::vector<std::unique_ptr<kube::LeaderElector>> electors_;
};

// A held lease that is never renewed expires after its duration as seen
// here; the candidate must try then, not at its next (later) retry.
TEST_F(LeaderElectorTest, CandidateTakesAnUnrenewedLeaseWhenItExpiresNotAtTheNextRetry) {
  Seed(HeldBy("other", 1));
  kube::LeaderElector& elector = Start(Config("me"));
  ASSERT_TRUE(WaitFor("the first read", 5s, [&] { return clock_->waits() > 0; }).ok());
  EXPECT_EQ(elector.ObservedLeader(), "other");

  ASSERT_TRUE(clock_->StepAndSettle(999ms).ok());
  EXPECT_FALSE(elector.IsLeader());
  clock_->Step(1ms);
  auto led =
      WaitFor("the candidate to take the expired lease", 5s, [&] { return elector.IsLeader(); });
  EXPECT_TRUE(led.ok()) << led.ToString();
  EXPECT_EQ(elector.ObservedLeader(), "me");
  auto record = store_->Read();
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->holder_identity, "me");
  EXPECT_EQ(record->leader_transitions, 4);
}

TEST_F(LeaderElectorTest, CandidateDoesNotTakeALeaseThatIsRenewed) {
  Seed(HeldBy("other", 15));
  std::shared_ptr<LeaseStoreLock> lock;
  kube::LeaderElector& elector = Start(Config("me"), &lock);
  ASSERT_TRUE(WaitFor("the first read", 5s, [&] { return clock_->waits() > 0; }).ok());
  LeaseStoreLock other(store_);
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(other.Get().ok());
    ASSERT_TRUE(other.Update(HeldBy("other", 15)).ok());  // a renewal
    ASSERT_TRUE(clock_->StepAndSettle(2400ms).ok());
  }
  EXPECT_FALSE(elector.IsLeader());
  EXPECT_EQ(elector.ObservedLeader(), "other");
  EXPECT_EQ(lock->writes(), 0);
  EXPECT_GE(lock->reads(), 30);
}

// on_new_leader used to run with the elector's mutex held.
TEST_F(LeaderElectorTest, CallbacksMayCallTheElector) {
  Seed(HeldBy("other", 1));
  kube::LeaderElector* self = nullptr;
  std::mutex mu;
  std::vector<std::string> seen;
  auto note = [&](std::string what) {
    std::lock_guard lock(mu);
    seen.push_back(std::move(what));
  };
  kube::LeaderElectionConfig config = Config("me");
  config.on_new_leader = [&](const std::string& id) {
    note("new " + id + " observed " + self->ObservedLeader());
  };
  config.on_started_leading = [&] { note(self->IsLeader() ? "started leader" : "started?"); };
  config.on_stopped_leading = [&] { note(self->IsLeader() ? "stopped?" : "stopped"); };
  electors_.push_back(
      std::make_unique<kube::LeaderElector>(std::make_shared<LeaseStoreLock>(store_), config));
  self = electors_.back().get();
  ASSERT_TRUE(self->Start().ok());
  auto observed = WaitFor("on_new_leader to return", 5s, [&] { return clock_->waits() > 0; });
  ASSERT_TRUE(observed.ok()) << observed.ToString();
  clock_->Step(1s);
  ASSERT_TRUE(WaitFor("leadership", 5s, [&] { return self->IsLeader(); }).ok());
  self->Stop();
  std::lock_guard lock(mu);
  EXPECT_EQ(seen, (std::vector<std::string>{"new other observed other", "new me observed me",
                                            "started leader", "stopped"}));
}

// A standby whose reads fail used to retry every millisecond once the lease
// it had last seen was past its expiry.
TEST_F(LeaderElectorTest, StandbyWhoseReadsFailWaitsTheRetryPeriod) {
  Seed(HeldBy("other", 1));
  std::shared_ptr<LeaseStoreLock> lock;
  kube::LeaderElectionConfig config = Config("me");
  config.lease_duration = 1s;
  config.renew_deadline = 500ms;
  config.retry_period = 100ms;
  kube::LeaderElector& elector = Start(config, &lock);
  ASSERT_TRUE(WaitFor("the first read", 5s, [&] { return clock_->waits() > 0; }).ok());
  lock->FailReads(kube::Status(kube::StatusCode::kUnavailable, "etcd is down"));
  int reads_before = lock->reads();
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(clock_->StepAndSettle(5ms).ok());  // 25 periods

  int attempts = lock->reads() - reads_before;
  EXPECT_LE(attempts, 26) << "more than one read per retry period";
  EXPECT_GE(attempts, 19) << "retry period jittered by more than 20%";
  EXPECT_FALSE(elector.IsLeader());
}

// The same on a FakeClock, with the test renewing for a live leader "a":
// the candidate's reads fail for longer than the lease lasts, then work
// again and find a renewal it has not seen. It must date that renewal to now.
TEST_F(LeaderElectorTest, CandidateDoesNotTakeALiveLeaseAfterAGapInItsReads) {
  Seed(HeldBy("a", 15));
  LeaseStoreLock a(store_);
  std::shared_ptr<LeaseStoreLock> lock;
  kube::LeaderElector& b = Start(Config("b"), &lock);
  ASSERT_TRUE(WaitFor("the first read", 5s, [&] { return clock_->waits() > 0; }).ok());
  int leading_steps = 0;
  auto run = [&](int steps) {
    for (int i = 1; i <= steps; ++i) {
      if (i % 10 == 0) {  // "a" renews every 2 s
        ASSERT_TRUE(a.Get().ok());
        ASSERT_TRUE(a.Update(HeldBy("a", 15)).ok());
      }
      ASSERT_TRUE(clock_->StepAndSettle(200ms).ok());
      leading_steps += b.IsLeader() ? 1 : 0;
    }
  };
  lock->FailReads(kube::Status(kube::StatusCode::kUnavailable, "partitioned"));
  run(100);  // 20 s without a successful read
  lock->FailReads(std::nullopt);
  run(100);
  EXPECT_EQ(leading_steps, 0) << "b led while a kept renewing";
  EXPECT_EQ(lock->writes(), 0);
  EXPECT_EQ(b.ObservedLeader(), "a");
}

// The leader's renewal hangs: it must stop leading at last renewal +
// renew_deadline all the same, and say so through the callback and metric.
TEST_F(LeaderElectorTest, LeaderStopsAtItsDeadlineWhileARenewalHangs) {
  auto registry = std::make_shared<prometheus::Registry>();
  std::atomic<int> stopped{0};
  kube::LeaderElectionConfig config = Config("me");
  config.metrics = registry;
  config.on_stopped_leading = [&] { ++stopped; };
  std::shared_ptr<LeaseStoreLock> lock;
  kube::LeaderElector& elector = Start(config, &lock);
  ASSERT_TRUE(WaitFor("leadership", 5s, [&] { return elector.IsLeader(); }).ok());
  EXPECT_EQ(MasterStatus(*registry), 1);

  // Acquired at fake time zero without a renewal since: the deadline is 10 s.
  lock->BlockWrites(true);
  kube::Clock::Duration stepped{0};
  auto hung = WaitFor("a renewal to hang", 5s, [&] {
    if (lock->blocked_writes() == 1) return true;
    clock_->Step(500ms);
    stepped += 500ms;
    return false;
  });
  ASSERT_TRUE(hung.ok()) << hung.ToString();
  ASSERT_LT(stepped, 9s);
  clock_->Step(10s - stepped - 1ms);
  EXPECT_TRUE(elector.IsLeader());
  clock_->Step(1ms);
  EXPECT_FALSE(elector.IsLeader()) << "still leading at the renew deadline";
  auto told = WaitFor("on_stopped_leading", 5s, [&] { return stopped == 1; });
  EXPECT_TRUE(told.ok()) << told.ToString();
  EXPECT_EQ(MasterStatus(*registry), 0);

  lock->BlockWrites(false);  // the renewal succeeds, too late
  elector.Stop();
  EXPECT_FALSE(elector.IsLeader());
  EXPECT_EQ(stopped, 1);
}

TEST_F(LeaderElectorTest, StopReleasesTheLeaseToAStandby) {
  std::atomic<int> stopped{0};
  kube::LeaderElectionConfig first = Config("first");
  first.on_stopped_leading = [&] { ++stopped; };
  kube::LeaderElector& leader = Start(first);
  ASSERT_TRUE(WaitFor("leadership", 5s, [&] { return leader.IsLeader(); }).ok());
  leader.Stop();
  EXPECT_FALSE(leader.IsLeader());
  EXPECT_EQ(stopped, 1);
  auto record = store_->Read();
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->holder_identity, "");

  kube::LeaderElector& standby = Start(Config("second"));
  auto took =
      WaitFor("the standby to take the released lease", 5s, [&] { return standby.IsLeader(); });
  EXPECT_TRUE(took.ok()) << took.ToString();
}

TEST_F(LeaderElectorTest, LeaderPastItsDeadlineDoesNotReleaseOnStop) {
  std::atomic<int> stopped{0};
  kube::LeaderElectionConfig config = Config("me");
  config.on_stopped_leading = [&] { ++stopped; };
  std::shared_ptr<LeaseStoreLock> lock;
  kube::LeaderElector& elector = Start(config, &lock);
  ASSERT_TRUE(WaitFor("leadership", 5s, [&] { return elector.IsLeader(); }).ok());
  lock->FailReads(kube::Status(kube::StatusCode::kUnavailable, "partitioned"));
  clock_->Step(10s);
  ASSERT_TRUE(WaitFor("on_stopped_leading", 5s, [&] { return stopped == 1; }).ok());
  int writes = store_->writes();
  elector.Stop();
  EXPECT_EQ(store_->writes(), writes) << "wrote the lease after its deadline";
  EXPECT_EQ(stopped, 1);
}

// Two processes, and one stops seeing the lease for longer than it lasts
// (5xx, a partition, a pause). It used to date the next renewal it saw to
// the start of its last successful read before the gap, and so took a live
// lease at once. Real time: the electors' threads run freely while this
// thread watches for an overlap.
TEST_F(LeaderElectorTest, TwoCandidatesNeverLeadAtOnceWhenOneMissesReads) {
  auto config = [&](const std::string& identity) {
    kube::LeaderElectionConfig c = Config(identity);
    c.clock = kube::RealClock::Shared();
    c.lease_duration = 1000ms;
    c.renew_deadline = 600ms;
    c.retry_period = 100ms;
    return c;
  };
  kube::LeaderElector& a = Start(config("a"));
  ASSERT_TRUE(WaitFor("a to lead", 5s, [&] { return a.IsLeader(); }).ok());
  std::shared_ptr<LeaseStoreLock> b_lock;
  kube::LeaderElector& b = Start(config("b"), &b_lock);
  ASSERT_TRUE(WaitFor("b to see a", 5s, [&] { return b.ObservedLeader() == "a"; }).ok());

  int overlaps = 0;
  auto watch = [&](std::chrono::milliseconds how_long) {
    auto until = std::chrono::steady_clock::now() + how_long;
    while (std::chrono::steady_clock::now() < until) {
      // Each elector leads over one interval at most, so a leader seen
      // before and after the other was seen leading led at that moment too.
      bool a1 = a.IsLeader();
      bool b1 = b.IsLeader();
      bool a2 = a.IsLeader();
      bool b2 = b.IsLeader();
      if ((a1 && b1 && a2) || (b1 && a2 && b2)) ++overlaps;
      std::this_thread::sleep_for(1ms);
    }
  };
  b_lock->FailReads(kube::Status(kube::StatusCode::kUnavailable, "etcd is down"));
  watch(2500ms);
  int reads = b_lock->reads();
  b_lock->FailReads(std::nullopt);
  watch(2000ms);
  EXPECT_GT(b_lock->reads(), reads + 5) << "b did not read again";
  EXPECT_EQ(overlaps, 0) << "a and b both reported leadership";
}

// The lease PUT is throttled with 429 + Retry-After, which the RestClient
// retries inside one Update() call: the leader still stops at its deadline.
TEST(LeaderElectorApiServerTest, LeaderStopsAtItsDeadlineWhenRenewalsAreThrottled) {
  constexpr const char* kPath = "/apis/coordination.k8s.io/v1/namespaces/default/leases/lock";
  const std::string lease =
      R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",)"
      R"("metadata":{"name":"lock","namespace":"default","resourceVersion":"7"},)"
      R"("spec":{"holderIdentity":"me","leaseDurationSeconds":2,"leaseTransitions":0}})";
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  (*server)->AddRoute(Route::Exact("GET", kPath).Once(),
                      {ScriptedResponse::KubeStatus(404, "NotFound", "no lease")});
  (*server)->AddRoute(Route::Exact("GET", kPath), {ScriptedResponse::Json(200, lease)});
  (*server)->AddRoute(
      Route::Exact("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases"),
      {ScriptedResponse::Json(201, lease)});
  std::vector<ScriptedResponse> throttled;
  for (int i = 0; i < 3; ++i) {
    throttled.push_back(ScriptedResponse::KubeStatus(429, "TooManyRequests", "slow down", 1));
  }
  (*server)->AddRoute(Route::Exact("PUT", kPath).Once(), std::move(throttled));

  kube::RestConfig rest;
  rest.server = (*server)->Url();
  rest.request_timeout = 5s;
  auto transport = kube::HttpTransport::Create(rest);
  ASSERT_TRUE(transport.ok()) << transport.status().ToString();
  // Default options: the client retries the 429s itself, for seconds.
  auto client = std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)), kube::RestClientOptions{});
  std::atomic<int64_t> started_ns{0};
  std::atomic<int64_t> stopped_ns{0};
  auto now_ns = [] { return std::chrono::steady_clock::now().time_since_epoch().count(); };
  kube::LeaderElectionConfig config;
  config.namespace_name = "default";
  config.name = "lock";
  config.identity = "me";
  config.lease_duration = 2s;
  config.renew_deadline = 1s;
  config.retry_period = 200ms;
  config.on_started_leading = [&] { started_ns = now_ns(); };
  config.on_stopped_leading = [&] { stopped_ns = now_ns(); };
  kube::LeaderElector elector(client, config);
  auto campaign_ns = now_ns();
  ASSERT_TRUE(elector.Start().ok());
  auto stopped = WaitFor("the leader to step down", 10s, [&] { return stopped_ns != 0; });
  ASSERT_TRUE(stopped.ok()) << stopped.ToString();
  EXPECT_FALSE(elector.IsLeader());
  // The deadline is renew_deadline after the start of the winning attempt,
  // which lies between campaign_ns and started_ns (the GET and POST of the
  // acquisition run in between). So the leader may not stop before
  // campaign_ns + renew_deadline (exact, no slack), and must stop soon after
  // started_ns + renew_deadline: the throttled renewal cannot keep it.
  auto ms = [](int64_t ns) { return ns / 1000000; };
  auto since_campaign = std::chrono::nanoseconds(stopped_ns - campaign_ns);
  auto led_for = std::chrono::nanoseconds(stopped_ns - started_ns);
  EXPECT_GE(since_campaign, config.renew_deadline)
      << "stopped " << ms(stopped_ns - campaign_ns) << " ms after the campaign began";
  EXPECT_LE(led_for, config.renew_deadline + dra::testing::TestTime::Scaled(100ms))
      << "led for " << ms(stopped_ns - started_ns) << " ms with a " << config.renew_deadline.count()
      << " ms renew deadline";
  elector.Stop();
}

TEST(LeaderElectionConfigTest, RefusesUnsafeTimingsAndMissingNames) {
  auto valid = [] {
    kube::LeaderElectionConfig config;
    config.namespace_name = "default";
    config.name = "lock";
    config.identity = "me";
    return config;
  };
  EXPECT_TRUE(kube::ValidateLeaderElectionConfig(valid()).ok());
  struct Case {
    std::function<void(kube::LeaderElectionConfig&)> change;
    std::string mentions;
  };
  std::vector<Case> cases = {
      {[](auto& c) { c.retry_period = 0ms; }, "--leader-elect-retry-period"},
      {[](auto& c) { c.retry_period = -1ms; }, "--leader-elect-retry-period"},
      {[](auto& c) { c.renew_deadline = 2400ms; }, "--leader-elect-renew-deadline (2400ms)"},
      {[](auto& c) { c.renew_deadline = 1s; }, "1.2 x --leader-elect-retry-period (2000ms)"},
      {[](auto& c) { c.lease_duration = 10s; }, "--leader-elect-lease-duration (10000ms)"},
      {[](auto& c) { c.lease_duration = 9s; }, "--leader-elect-renew-deadline (10000ms)"},
      {[](auto& c) { c.name = ""; }, "--leader-election-id"},
      {[](auto& c) { c.namespace_name = ""; }, "--leader-election-namespace"},
      {[](auto& c) { c.identity = ""; }, "identity"},
  };
  for (const Case& test : cases) {
    kube::LeaderElectionConfig config = valid();
    test.change(config);
    kube::Status status = kube::ValidateLeaderElectionConfig(config);
    EXPECT_EQ(status.code(), kube::StatusCode::kInvalidArgument) << test.mentions;
    EXPECT_NE(status.message().find(test.mentions), std::string::npos) << status.ToString();
  }
  kube::LeaderElectionConfig just_above = valid();
  just_above.renew_deadline = 2401ms;
  EXPECT_TRUE(kube::ValidateLeaderElectionConfig(just_above).ok());
}

TEST(LeaderElectionConfigTest, StartRefusesAnInvalidConfig) {
  kube::LeaderElectionConfig config;
  config.namespace_name = "default";
  config.name = "lock";
  config.identity = "me";
  config.retry_period = 10s;
  kube::LeaderElector elector(std::make_shared<LeaseStoreLock>(std::make_shared<LeaseStore>()),
                              config);
  EXPECT_EQ(elector.Start().code(), kube::StatusCode::kInvalidArgument);
  EXPECT_FALSE(elector.IsLeader());
}

}  // namespace
}  // namespace dra::testing
