// Two or more dra-controller processes competing for one Lease on the real
// kube-apiserver: never two leaders at once, SIGTERM hands over within 3 s
// (the lease is released), SIGKILL within 17 s (lease duration + retry).
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <random>
#include <regex>
#include <thread>

#include "src/http/HttpTransport.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
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

class Replica {
 public:
  static std::unique_ptr<Replica> Start(const TestCluster& cluster, const std::string& lease) {
    auto process = BackgroundProcess::Start(
        {std::string(DRA_BINARY_DIR) + "/dra-controller", "run", "--kubeconfig",
         cluster.kubeconfig(), "--leader-elect", "--leader-election-namespace", "default",
         "--leader-election-id", lease, "--metrics-bind-address", "127.0.0.1:0",
         "--health-probe-bind-address", "127.0.0.1:0"});
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

  // 1 if this replica reports itself leader, 0 if not, -1 if unreachable.
  int MasterStatus() const {
    kube::RestConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(metrics_port_);
    config.request_timeout = 2s;
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

  std::string lease_;
  std::thread sampler_;
  std::atomic<bool> stop_sampling_{false};
  std::atomic<int> max_leaders_{0};
};

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
  EXPECT_LE(after_sigkill, 17s)
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
