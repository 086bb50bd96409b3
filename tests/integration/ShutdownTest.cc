// SIGTERM to `dra-controller run` must end it within a Pod's grace period,
// even while its requests hang on an API server that never answers; and a
// leader releases its lease only after its writers have stopped.
#include <gtest/gtest.h>
#include <signal.h>

#include <random>
#include <regex>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/ControllerUnderTest.h"
#include "tests/support/HostileTcpServer.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

// The manifests' terminationGracePeriodSeconds is 15; leave a margin.
constexpr auto kExitWithin = 10s;

std::string Binary() { return ControllerUnderTest::Binary(); }

std::string KubeconfigFor(const std::string& server) {
  return "apiVersion: v1\nkind: Config\ncurrent-context: hole\n"
         "clusters:\n- name: hole\n  cluster:\n    server: " +
         server +
         "\n    insecure-skip-tls-verify: true\n"
         "users:\n- name: hole\n  user:\n    token: t0ken\n"
         "contexts:\n- name: hole\n  context:\n    cluster: hole\n    user: hole\n"
         "    namespace: default\n";
}

// How long the process took to exit after `signal`, or nullopt if it did not
// within `limit`.
std::optional<std::chrono::milliseconds> ExitAfter(BackgroundProcess& process, int signal,
                                                   std::chrono::milliseconds limit,
                                                   std::optional<int>* code = nullptr) {
  auto sent = std::chrono::steady_clock::now();
  process.Signal(signal);
  auto exited = process.Wait(limit);
  if (code != nullptr) *code = exited;
  if (!exited) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               sent);
}

// Position of `needle` in `text`, or npos; for asserting the order of log lines.
size_t At(const std::string& text, const std::string& needle) { return text.find(needle); }

// An API server that accepts connections and never says a word (a stalled
// TLS handshake): every request hangs until its 30 s request timeout.
TEST(ShutdownTest, SigtermDuringARequestToABlackHoledApiServerExitsInTime) {
  auto hole = HostileTcpServer::Start();
  ASSERT_TRUE(hole.ok()) << hole.status().ToString();
  TempDir dir;
  std::string kubeconfig = dir.Write("kubeconfig", KubeconfigFor((*hole)->Url("https")));
  auto process = BackgroundProcess::Start(
      {Binary(), "run", "--kubeconfig", kubeconfig, "--leader-elect", "--leader-election-namespace",
       "default", "--metrics-bind-address", "0", "--health-probe-bind-address", "127.0.0.1:0"});
  ASSERT_TRUE(process.ok()) << process.status().ToString();
  auto& p = **process;
  // Discovery and the lease both have a request hanging.
  ASSERT_TRUE(
      WaitFor("two connections to the black hole", 10s, [&] { return (*hole)->accepted() >= 2; })
          .ok())
      << p.Output();
  std::optional<int> code;
  auto took = ExitAfter(p, SIGTERM, kExitWithin, &code);
  ASSERT_TRUE(took.has_value()) << "still running " << kExitWithin.count() << " s after SIGTERM:\n"
                                << p.Output();
  EXPECT_EQ(code, 0) << p.Output();
  std::string out = p.Output();
  EXPECT_NE(At(out, "received SIGTERM"), std::string::npos) << out;
  EXPECT_NE(At(out, "stopped"), std::string::npos) << out;
  (*hole)->Stop();
}

class ShutdownClusterTest : public ClusterTest {};

TEST_F(ShutdownClusterTest, LeaderReleasesItsLeaseAfterItsWritersStopped) {
  if (Skipped()) return;
  std::string lease = "shutdown-test-" + std::to_string(std::random_device{}() % 1000000);
  auto process = BackgroundProcess::Start(
      {Binary(), "run", "--kubeconfig", cluster_->kubeconfig(), "--leader-elect",
       "--leader-election-namespace", "default", "--leader-election-id", lease,
       "--metrics-bind-address", "0", "--health-probe-bind-address", "127.0.0.1:0"});
  ASSERT_TRUE(process.ok()) << process.status().ToString();
  auto& p = **process;
  ASSERT_TRUE(WaitFor("leading and synced", 30s,
                      [&] {
                        std::string out = p.Output();
                        return At(out, "leading: leader-only runnables may start") !=
                                   std::string::npos &&
                               At(out, "inventory synced") != std::string::npos;
                      })
                  .ok())
      << p.Output();
  std::optional<int> code;
  auto took = ExitAfter(p, SIGTERM, kExitWithin, &code);
  ASSERT_TRUE(took.has_value()) << "still running after SIGTERM:\n" << p.Output();
  EXPECT_EQ(code, 0) << p.Output();

  std::string out = p.Output();
  // Without /metrics nothing could scrape the allocation metrics, so they are
  // never rendered.
  EXPECT_NE(At(out, "allocation metrics off"), std::string::npos) << out;
  EXPECT_EQ(At(out, "started allocation-metrics"), std::string::npos) << out;
  size_t signalled = At(out, "received SIGTERM");
  size_t writers_stopped = At(out, "leader-only runnables stopped");
  size_t released = At(out, "released lease default/" + lease);
  size_t stopped = out.rfind(" info stopped");
  ASSERT_NE(signalled, std::string::npos) << out;
  ASSERT_NE(writers_stopped, std::string::npos) << out;
  ASSERT_NE(released, std::string::npos) << out;
  ASSERT_NE(stopped, std::string::npos) << out;
  EXPECT_LT(signalled, writers_stopped) << out;
  EXPECT_LT(writers_stopped, released) << "the lease was released before the writers stopped\n"
                                       << out;
  EXPECT_LT(released, stopped) << out;

  auto record = client_->Get("/apis/coordination.k8s.io/v1/namespaces/default/leases/" + lease);
  ASSERT_TRUE(record.ok()) << record.status().ToString();
  EXPECT_EQ(record->value("spec", nlohmann::json::object()).value("holderIdentity", ""), "")
      << record->dump();
  (void)client_->Delete("/apis/coordination.k8s.io/v1/namespaces/default/leases/" + lease);
}

}  // namespace
}  // namespace dra::testing
