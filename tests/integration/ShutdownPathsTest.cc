// Every path that ends `dra-controller run`, on the real control plane, with
// clients on the probe and /metrics ports while it ends: SIGTERM, a lost
// lease, a feature that cannot be wired, a served port that cannot be bound.
// Each must end with its exact exit code and a clean teardown. `make test`
// runs this set once more against an ASan+UBSan build of the binary
// (DRA_CONTROLLER_UNDER_TEST, hack/sanitize.sh shutdown), where a heap error
// in teardown is a report and exit code 86; DRA_SHUTDOWN_ROUNDS repeats each.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <random>
#include <regex>
#include <thread>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/ControllerUnderTest.h"
#include "tests/support/RawHttpClient.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

constexpr int kExitFailure = 1;

std::chrono::milliseconds Scaled(std::chrono::milliseconds limit) {
  return TestTime::Scaled(limit);
}

std::string RandomName(const std::string& prefix) {
  return prefix + std::to_string(std::random_device{}() % 1000000);
}

// The port a "serving ... port=N" log line names, once it is logged.
int LoggedPort(BackgroundProcess& process, const std::string& what) {
  const std::regex line("serving " + what + " on \\S+ .*port=(\\d+)");
  int port = 0;
  auto found = WaitFor("the " + what + " port in the log", Scaled(60s), [&] {
    std::smatch match;
    std::string out = process.Output();
    if (!std::regex_search(out, match, line)) return false;
    port = std::stoi(match[1]);
    return true;
  });
  return found.ok() ? port : 0;
}

// Clients requesting /healthz, /readyz and /metrics back to back on two
// threads until stopped, as kubelet probes and a scraper do.
class ProbeAndScrapeLoad {
 public:
  ProbeAndScrapeLoad(int probe_port, int metrics_port) {
    for (int t = 0; t < 2; ++t) {
      threads_.emplace_back([this, probe_port, metrics_port] {
        const char* paths[] = {"/healthz", "/readyz", "/metrics"};
        for (int i = 0; !stop_; ++i) {
          const char* path = paths[i % 3];
          int port = i % 3 == 2 ? metrics_port : probe_port;
          if (RawHttpClient::Send(port, "GET", path, false, 2s).ok()) ++answered_;
        }
      });
    }
  }
  ~ProbeAndScrapeLoad() { Stop(); }
  void Stop() {
    stop_ = true;
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
  }
  int answered() const { return answered_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> answered_{0};
  std::vector<std::thread> threads_;
};

class ShutdownPathsTest : public ClusterTest {
 protected:
  std::unique_ptr<BackgroundProcess> Run(std::vector<std::string> flags) {
    std::vector<std::string> argv = {ControllerUnderTest::Binary(), "run", "--kubeconfig",
                                     cluster_->kubeconfig()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto process = BackgroundProcess::Start(argv);
    EXPECT_TRUE(process.ok()) << process.status().ToString();
    return process.ok() ? std::move(*process) : nullptr;
  }

  std::vector<std::string> Leader(const std::string& lease) {
    return {"--leader-elect",
            "--leader-election-namespace",
            "default",
            "--leader-election-id",
            lease,
            "--metrics-bind-address",
            "127.0.0.1:0",
            "--health-probe-bind-address",
            "127.0.0.1:0",
            "--leader-elect-lease-duration",
            "3000ms",
            "--leader-elect-renew-deadline",
            "2000ms",
            "--leader-elect-retry-period",
            "500ms"};
  }

  bool LoggedWithin(BackgroundProcess& process, const std::string& text,
                    std::chrono::milliseconds limit) {
    return WaitFor("\"" + text + "\" in the log", Scaled(limit),
                   [&] { return process.Output().find(text) != std::string::npos; })
        .ok();
  }

  std::string LeaseHolder(const std::string& lease) const {
    auto record = cluster_->GetJson({"get", "lease", "-n", "default", lease, "-o", "json"});
    if (!record.ok()) return "";
    return record->at("spec").value("holderIdentity", "");
  }

  // The exit code, exactly, and no sanitizer report in the output.
  static void ExpectExit(BackgroundProcess& process, int expected) {
    auto code = process.Wait(Scaled(20s));
    std::string out = process.Output();
    ASSERT_TRUE(code.has_value()) << "still running 20 s after it should have exited:\n" << out;
    EXPECT_EQ(*code, expected) << out;
    auto report = ControllerUnderTest::SanitizerReport(out);
    EXPECT_FALSE(report.has_value()) << *report << "\n" << out;
  }

  void DeleteLease(const std::string& lease) {
    (void)client_->Delete("/apis/coordination.k8s.io/v1/namespaces/default/leases/" + lease);
  }
};

// SIGTERM while probes and scrapes arrive, a second after the leader synced.
TEST_F(ShutdownPathsTest, SigtermUnderProbeAndScrapeLoadExitsZero) {
  if (Skipped()) return;
  for (int round = 0; round < ControllerUnderTest::ShutdownRounds(); ++round) {
    std::string lease = RandomName("shutdown-sigterm-");
    auto p = Run(Leader(lease));
    ASSERT_NE(p, nullptr);
    int probes = LoggedPort(*p, "probes"), metrics = LoggedPort(*p, "metrics");
    ASSERT_GT(probes, 0) << p->Output();
    ASSERT_GT(metrics, 0) << p->Output();
    ASSERT_TRUE(LoggedWithin(*p, "inventory synced", 60s)) << p->Output();
    ProbeAndScrapeLoad load(probes, metrics);
    ASSERT_TRUE(
        WaitFor("answers under load", Scaled(10s), [&] { return load.answered() >= 20; }).ok());
    std::this_thread::sleep_for(1s);  // the reproduction's pause: load keeps arriving
    p->Signal(SIGTERM);
    ExpectExit(*p, 0);
    load.Stop();
    EXPECT_NE(p->Output().find(" info stopped"), std::string::npos) << p->Output();
    DeleteLease(lease);
  }
}

// A leader paused past its renew deadline loses the lease to a standby; when
// it resumes it fences its writers, tears everything down and exits 1.
TEST_F(ShutdownPathsTest, LostLeaseTearsDownFullyAndExitsOne) {
  if (Skipped()) return;
  for (int round = 0; round < ControllerUnderTest::ShutdownRounds(); ++round) {
    std::string lease = RandomName("shutdown-lost-");
    auto a = Run(Leader(lease));
    ASSERT_NE(a, nullptr);
    int probes = LoggedPort(*a, "probes"), metrics = LoggedPort(*a, "metrics");
    ASSERT_GT(probes, 0) << a->Output();
    ASSERT_GT(metrics, 0) << a->Output();
    ASSERT_TRUE(LoggedWithin(*a, "leading: leader-only runnables may start", 60s)) << a->Output();
    std::string a_identity = LeaseHolder(lease);
    auto b = Run(Leader(lease));
    ASSERT_NE(b, nullptr);
    ProbeAndScrapeLoad load(probes, metrics);
    a->Signal(SIGSTOP);
    auto taken = WaitFor("the standby to take the lease", Scaled(30s), [&] {
      std::string holder = LeaseHolder(lease);
      return !holder.empty() && holder != a_identity;
    });
    a->Signal(SIGCONT);
    ASSERT_TRUE(taken.ok()) << taken.ToString() << "\n" << b->Output();
    ExpectExit(*a, kExitFailure);
    load.Stop();
    std::string out = a->Output();
    EXPECT_NE(out.find("leadership lost: this replica's API requests are cancelled"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find(" info stopped"), std::string::npos) << "no full teardown\n" << out;
    EXPECT_NE(LeaseHolder(lease), a_identity) << "the resumed replica wrote the lease";
    b->Signal(SIGTERM);
    ExpectExit(*b, 0);
    DeleteLease(lease);
  }
}

// The Alertmanager webhook needs the serving certificate; from a directory
// that holds none, its feature cannot be wired and the process stops.
TEST_F(ShutdownPathsTest, FeatureThatCannotBeWiredExitsOne) {
  if (Skipped()) return;
  ASSERT_TRUE(cluster_->InstallDeviceHealthCrd().ok());  // else the webhook stays off
  for (int round = 0; round < ControllerUnderTest::ShutdownRounds(); ++round) {
    auto p = Run({"--metrics-bind-address", "0", "--health-probe-bind-address", "127.0.0.1:0",
                  "--metrics-secure", "--metrics-cert-dir", "/nonexistent-dra-controller-certs",
                  "--alertmanager-webhook-bind-address", "127.0.0.1:0"});
    ASSERT_NE(p, nullptr);
    ExpectExit(*p, kExitFailure);
    EXPECT_NE(p->Output().find("a feature could not be wired"), std::string::npos) << p->Output();
  }
}

// A metrics port another process holds: the process stops with an error
// naming the flag, after the probe server it already started is torn down.
TEST_F(ShutdownPathsTest, ServedPortThatCannotBeBoundExitsOne) {
  if (Skipped()) return;
  auto holder = Run({"--metrics-bind-address", "127.0.0.1:0", "--health-probe-bind-address", "0"});
  ASSERT_NE(holder, nullptr);
  int taken = LoggedPort(*holder, "metrics");
  ASSERT_GT(taken, 0) << holder->Output();
  ASSERT_TRUE(cluster_->InstallDeviceHealthCrd().ok());  // else the webhook stays off
  const std::string address = "127.0.0.1:" + std::to_string(taken);
  for (int round = 0; round < ControllerUnderTest::ShutdownRounds(); ++round) {
    auto p = Run({"--metrics-bind-address", address, "--health-probe-bind-address", "127.0.0.1:0"});
    ASSERT_NE(p, nullptr);
    ExpectExit(*p, kExitFailure);
    EXPECT_NE(p->Output().find("--metrics-bind-address"), std::string::npos) << p->Output();
    // The webhook's port is bound once the caches synced, after the probes serve.
    auto webhook = Run({"--metrics-bind-address", "0", "--health-probe-bind-address", "127.0.0.1:0",
                        "--alertmanager-webhook-bind-address", address});
    ASSERT_NE(webhook, nullptr);
    ExpectExit(*webhook, kExitFailure);
    EXPECT_NE(webhook->Output().find("--alertmanager-webhook-bind-address"), std::string::npos)
        << webhook->Output();
  }
  holder->Signal(SIGTERM);
  ExpectExit(*holder, 0);
}

}  // namespace
}  // namespace dra::testing
