// Two or more dra-controller processes competing for one Lease on the real
// kube-apiserver: never two leaders at once, SIGTERM hands over within 3 s
// (the lease is released), SIGKILL within FailoverBound() (derived from the
// election timings), and a leader paused past its renew deadline does not
// lead again when it resumes.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <regex>
#include <thread>

#include "src/http/HttpTransport.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/ControllerUnderTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

// The value of leader_election_master_status in a /metrics page (0 if absent).
int ParseMasterStatus(const std::string& metrics) {
  size_t pos = metrics.find("\nleader_election_master_status{");
  if (pos == std::string::npos) return 0;
  size_t eol = metrics.find('\n', pos + 1);
  std::string line = metrics.substr(pos + 1, eol - pos - 1);
  return line.substr(line.rfind(' ') + 1) == "1" ? 1 : 0;
}

// The election timings given to replicas (the run command's flags).
struct Timings {
  std::chrono::milliseconds lease{15000};  // the defaults
  std::chrono::milliseconds renew{10000};
  std::chrono::milliseconds retry{2000};
};

// The longest SIGKILL failover the election allows, from its timings. The
// killed leader's last renewal was stored at most when it died. A standby
// polls at most 1.2 x retry apart (its jitter), so it has received that
// record at most 1.2 x retry after the kill, and it polls again exactly when
// the record it received expires, lease later; then it takes the lease. The
// margin covers the API round trips of that read and write, and of this
// test's /metrics polls (one second; they take milliseconds here).
std::chrono::milliseconds FailoverBound(const Timings& t) {
  constexpr auto kMargin = std::chrono::milliseconds(1000);
  return t.lease + t.retry * 6 / 5 + kMargin;
}

std::string Flag(std::chrono::milliseconds d) { return std::to_string(d.count()) + "ms"; }

class Replica {
 public:
  static std::unique_ptr<Replica> Start(const TestCluster& cluster, const std::string& lease,
                                        const Timings& timings = {}) {
    auto process = BackgroundProcess::Start(
        {ControllerUnderTest::Binary(), "run", "--kubeconfig", cluster.kubeconfig(),
         "--leader-elect", "--leader-election-namespace", "default", "--leader-election-id", lease,
         "--metrics-bind-address", "127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0",
         "--leader-elect-lease-duration", Flag(timings.lease), "--leader-elect-renew-deadline",
         Flag(timings.renew), "--leader-elect-retry-period", Flag(timings.retry)});
    if (!process.ok()) return nullptr;
    auto replica = std::unique_ptr<Replica>(new Replica(std::move(*process)));
    std::smatch match;
    static const std::regex kMetricsPort("serving metrics on \\S+ \\(/metrics\\) port=(\\d+)");
    auto started = WaitFor("replica metrics port", 10s, [&] {
      std::string out = replica->process_->Output();
      if (!std::regex_search(out, match, kMetricsPort)) return false;
      replica->metrics_port_ = std::stoi(match[1]);
      return true;
    });
    return started.ok() ? std::move(replica) : nullptr;
  }

  // 1 if this replica reports itself leader, 0 if not, -1 if unreachable
  // within `timeout` (a stopped process accepts connections but never answers).
  int MasterStatus(std::chrono::milliseconds timeout = 2s) const {
    kube::RestConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(metrics_port_);
    config.request_timeout = timeout;
    auto transport = kube::HttpTransport::Create(config);
    if (!transport.ok()) return -1;
    kube::HttpRequest request;
    request.path = "/metrics";
    auto response = (*transport)->Send(request);
    if (!response.ok()) return -1;
    return ParseMasterStatus(response->body);
  }

  BackgroundProcess& process() { return *process_; }

 private:
  explicit Replica(std::unique_ptr<BackgroundProcess> p) : process_(std::move(p)) {}
  std::unique_ptr<BackgroundProcess> process_;
  int metrics_port_ = 0;
};

class LeaderElectionTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    lease_ = "le-test-" + std::to_string(std::random_device{}() % 1000000);
  }

  // Samples replicas' master status until stopped; records the most leaders seen at once.
  void StartSampling(std::vector<Replica*> replicas) {
    sampler_ = std::thread([this, replicas] {
      while (!stop_sampling_) {
        int leaders = 0;
        for (Replica* r : replicas) leaders += r->MasterStatus() == 1 ? 1 : 0;
        max_leaders_ = std::max(max_leaders_.load(), leaders);
        std::this_thread::sleep_for(50ms);
      }
    });
  }
  void StopSampling() {
    stop_sampling_ = true;
    if (sampler_.joinable()) sampler_.join();
  }
  void TearDown() override { StopSampling(); }

  std::chrono::milliseconds TimeUntilLeader(Replica& r, std::chrono::seconds limit) {
    auto start = std::chrono::steady_clock::now();
    auto led = WaitFor("replica to lead", limit, [&] { return r.MasterStatus() == 1; });
    EXPECT_TRUE(led.ok()) << led.ToString() << "\n" << r.process().Output();
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start);
  }

  // Polls both replicas' /metrics back to back, many times a second, with a
  // short timeout (a stopped process never answers): counts the rounds, and
  // those in which both reported leading.
  void StartPairSampling(Replica& a, Replica& b) {
    sampler_ = std::thread([this, &a, &b] {
      while (!stop_sampling_) {
        int a_leads = a.MasterStatus(150ms), b_leads = b.MasterStatus(150ms);
        ++rounds_;
        if (a_leads == 1 && b_leads == 1) ++both_leading_rounds_;
        if (a_leads == 1) a_last_led_ = std::chrono::steady_clock::now();
        std::this_thread::sleep_for(10ms);
      }
    });
  }

  // Rounds per second since `since`, for the report.
  double SampleRate(std::chrono::steady_clock::time_point since) const {
    auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
    return rounds_ / took;
  }

  std::string LeaseHolder() const {
    auto lease = cluster_->GetJson({"get", "lease", "-n", "default", lease_, "-o", "json"});
    if (!lease.ok()) return "<" + lease.status().ToString() + ">";
    return lease->at("spec").value("holderIdentity", "");
  }

  std::string lease_;
  std::thread sampler_;
  std::atomic<bool> stop_sampling_{false};
  std::atomic<int> max_leaders_{0};
  std::atomic<int> rounds_{0};
  std::atomic<int> both_leading_rounds_{0};
  std::atomic<std::chrono::steady_clock::time_point> a_last_led_{};
};

// Short timings, valid under the election's rule retry x 1.2 < renew < lease.
const Timings kShort{.lease = 3000ms, .renew = 2000ms, .retry = 500ms};

long long Ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

TEST_F(LeaderElectionTest, SigkilledLeaderIsReplacedWithinTheBoundAndNeverTwoLead) {
  auto a = Replica::Start(*cluster_, lease_, kShort);
  ASSERT_NE(a, nullptr);
  TimeUntilLeader(*a, 20s);
  auto b = Replica::Start(*cluster_, lease_, kShort);
  ASSERT_NE(b, nullptr);
  auto sampling_since = std::chrono::steady_clock::now();
  StartPairSampling(*a, *b);
  ASSERT_TRUE(
      WaitFor("a few campaign rounds of the standby", 10s, [&] { return rounds_ >= 50; }).ok());
  EXPECT_EQ(b->MasterStatus(), 0);

  a->process().Signal(SIGKILL);
  auto killed = std::chrono::steady_clock::now();
  auto bound = FailoverBound(kShort);
  auto took_over = WaitFor("the standby to lead after SIGKILL", bound + 10s,
                           [&] { return b->MasterStatus(150ms) == 1; });
  auto failover = std::chrono::steady_clock::now() - killed;
  StopSampling();
  ASSERT_TRUE(took_over.ok()) << took_over.ToString() << "\n" << b->process().Output();
  EXPECT_LE(failover, bound) << "SIGKILL failover took " << Ms(failover) << " ms";
  EXPECT_EQ(both_leading_rounds_, 0) << "both processes reported leading in "
                                     << both_leading_rounds_ << " of " << rounds_ << " rounds";
  EXPECT_GE(SampleRate(sampling_since), 5) << "the test must poll many times a second";
  std::cout << "SIGKILL failover " << Ms(failover) << " ms (bound " << bound.count() << " ms); "
            << rounds_ << " polling rounds at " << SampleRate(sampling_since)
            << "/s, both leading in " << both_leading_rounds_ << "\n";
  b->process().Signal(SIGTERM);
  EXPECT_EQ(b->process().Wait(10s), 0);
}

// A leader paused (SIGSTOP) longer than the lease loses it to the standby.
// Resumed (SIGCONT) past its renew deadline, it must not act as leader: it
// reports not leading (and exits, to campaign again after a restart) and
// never writes the lease, which the standby keeps.
TEST_F(LeaderElectionTest, APausedLeaderDoesNotLeadAgainWhenItResumes) {
  auto a = Replica::Start(*cluster_, lease_, kShort);
  ASSERT_NE(a, nullptr);
  TimeUntilLeader(*a, 20s);
  std::string a_identity = LeaseHolder();
  auto b = Replica::Start(*cluster_, lease_, kShort);
  ASSERT_NE(b, nullptr);
  auto sampling_since = std::chrono::steady_clock::now();
  StartPairSampling(*a, *b);
  ASSERT_TRUE(
      WaitFor("a few campaign rounds of the standby", 10s, [&] { return rounds_ >= 50; }).ok());

  a->process().Signal(SIGSTOP);
  auto paused = std::chrono::steady_clock::now();
  auto took_over =
      WaitFor("the standby to lead while the leader is paused", FailoverBound(kShort) + 10s,
              [&] { return b->MasterStatus(150ms) == 1; });
  ASSERT_TRUE(took_over.ok()) << took_over.ToString();
  std::string b_identity = LeaseHolder();
  EXPECT_NE(b_identity, a_identity);
  auto resumed = std::chrono::steady_clock::now();
  ASSERT_GT(resumed - paused, kShort.renew) << "resumed before its renew deadline";
  a->process().Signal(SIGCONT);

  // Watch for several retry periods: A would have renewed in each of them.
  auto exited = a->process().Wait(5s);
  // Keep polling for several retry periods: a leader would renew in each.
  std::this_thread::sleep_until(resumed + kShort.retry * 4);
  StopSampling();
  EXPECT_EQ(exited, std::optional<int>(1)) << "a resumed ex-leader exits (leadership lost)\n"
                                           << a->process().Output();
  auto report = ControllerUnderTest::SanitizerReport(a->process().Output());
  EXPECT_FALSE(report.has_value()) << *report;
  EXPECT_LT(a_last_led_.load(), resumed) << "the resumed process reported leading";
  EXPECT_EQ(both_leading_rounds_, 0) << "both processes reported leading in "
                                     << both_leading_rounds_ << " of " << rounds_ << " rounds";
  EXPECT_EQ(LeaseHolder(), b_identity) << "the resumed process wrote the lease";
  EXPECT_EQ(b->MasterStatus(), 1);
  EXPECT_GE(SampleRate(sampling_since), 5);
  std::cout << "paused " << Ms(resumed - paused) << " ms; " << rounds_ << " polling rounds at "
            << SampleRate(sampling_since) << "/s, both leading in " << both_leading_rounds_ << "\n";
  b->process().Signal(SIGTERM);
  EXPECT_EQ(b->process().Wait(10s), 0);
}

TEST_F(LeaderElectionTest, OneLeaderAtATimeAndFastFailover) {
  auto a = Replica::Start(*cluster_, lease_);
  ASSERT_NE(a, nullptr);
  TimeUntilLeader(*a, 20s);
  auto b = Replica::Start(*cluster_, lease_);
  ASSERT_NE(b, nullptr);
  auto c = Replica::Start(*cluster_, lease_);
  ASSERT_NE(c, nullptr);
  StartSampling({a.get(), b.get(), c.get()});
  std::this_thread::sleep_for(3s);  // let the standbys campaign against a live leader
  EXPECT_EQ(b->MasterStatus(), 0);
  EXPECT_EQ(c->MasterStatus(), 0);

  a->process().Signal(SIGTERM);
  auto start = std::chrono::steady_clock::now();
  auto handed_over = WaitFor("a standby to lead after SIGTERM", 10s,
                             [&] { return b->MasterStatus() == 1 || c->MasterStatus() == 1; });
  auto after_sigterm = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(handed_over.ok()) << handed_over.ToString();
  EXPECT_LE(after_sigterm, 3s)
      << "SIGTERM handover took "
      << std::chrono::duration_cast<std::chrono::milliseconds>(after_sigterm).count() << " ms";
  EXPECT_EQ(a->process().Wait(10s), 0) << a->process().Output();

  Replica* leader = b->MasterStatus() == 1 ? b.get() : c.get();
  Replica* standby = leader == b.get() ? c.get() : b.get();
  leader->process().Signal(SIGKILL);
  start = std::chrono::steady_clock::now();
  auto took_over = WaitFor("the last standby to lead after SIGKILL", 25s,
                           [&] { return standby->MasterStatus() == 1; });
  auto after_sigkill = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(took_over.ok()) << took_over.ToString();
  EXPECT_LE(after_sigkill, FailoverBound(Timings{}))
      << "SIGKILL failover took "
      << std::chrono::duration_cast<std::chrono::milliseconds>(after_sigkill).count() << " ms";
  StopSampling();
  EXPECT_LE(max_leaders_.load(), 1) << "two replicas reported leadership at the same time";
  RecordProperty(
      "sigterm_handover_ms",
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(after_sigterm).count()));
  RecordProperty(
      "sigkill_failover_ms",
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(after_sigkill).count()));
  std::cout << "SIGTERM handover "
            << std::chrono::duration_cast<std::chrono::milliseconds>(after_sigterm).count()
            << " ms; SIGKILL failover "
            << std::chrono::duration_cast<std::chrono::milliseconds>(after_sigkill).count()
            << " ms\n";
  standby->process().Signal(SIGTERM);
  EXPECT_EQ(standby->process().Wait(10s), 0);
}

}  // namespace
}  // namespace dra::testing
