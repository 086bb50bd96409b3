// The process half of the memory regression gate: `dra-controller run`
// syncs a fixed generated fleet (hack/bench/gate-fleet.sh) from the real API
// server, and its resident memory once settled must stay within 10 % of the
// baseline committed in tests/gate/process-rss-baseline.json. The heap half
// (per cached object, exact) is tests/gate/MemoryGate.cc.
//
// DRA_WRITE_RSS_BASELINE=1 records the figure instead of checking it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
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

constexpr double kTolerance = 0.10;
const char* const kBaseline = DRA_REPO_ROOT "/tests/gate/process-rss-baseline.json";

int64_t StatusKib(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return -1;
}

bool Ready(int port) {
  kube::RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  config.request_timeout = 2s;
  auto transport = kube::HttpTransport::Create(config);
  if (!transport.ok()) return false;
  kube::HttpRequest request;
  request.path = "/readyz";
  auto response = (*transport)->Send(request);
  return response.ok() && response->status == 200;
}

class ProcessMemoryGateTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    // A namespace of its own: an earlier run's may still be terminating.
    namespace_ = "memory-gate-" + std::to_string(std::random_device{}() % 1000000);
    auto created = cluster_->RunRepoScript("hack/bench/gate-fleet.sh", {"create", namespace_},
                                           std::chrono::seconds(300));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  void TearDown() override {
    if (cluster_ && !namespace_.empty()) {
      auto deleted = cluster_->RunRepoScript("hack/bench/gate-fleet.sh", {"delete", namespace_});
      if (!deleted.ok()) std::cerr << "cleanup: " << deleted.status().ToString() << "\n";
    }
    ClusterTest::TearDown();
  }

  // Starts the controller and returns its probe port once /readyz says every
  // informer cache has synced.
  int StartAndWaitUntilReady(std::unique_ptr<BackgroundProcess>& process) {
    // As the binary runs by default: two malloc arenas (the figure then does
    // not depend on how many threads happened to allocate at once) and freed
    // heap given back (src/base/MallocArenas.h, HeapTrimmer.h). Without an
    // environment that chooses otherwise: the figure is the binary's own.
    auto started =
        BackgroundProcess::Start({"env", "-u", "MALLOC_ARENA_MAX", "-u", "GLIBC_TUNABLES",
                                  std::string(DRA_BINARY_DIR) + "/dra-controller", "run",
                                  "--kubeconfig", cluster_->kubeconfig(), "--metrics-bind-address",
                                  "0", "--health-probe-bind-address", "127.0.0.1:0"});
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    if (!started.ok()) return 0;
    process = std::move(*started);
    static const std::regex kProbePort(
        "serving probes on \\S+ \\(/healthz, /readyz\\) port=(\\d+)");
    int port = 0;
    auto ready = WaitFor("controller ready", 180s, [&] {
      std::smatch match;
      std::string out = process->Output();
      if (port == 0 && std::regex_search(out, match, kProbePort)) port = std::stoi(match[1]);
      return port != 0 && Ready(port);
    });
    EXPECT_TRUE(ready.ok()) << ready.ToString() << "\n" << process->Output();
    return ready.ok() ? port : 0;
  }

  std::string namespace_;
};

// Resident memory settles once the handlers have drained the initial lists:
// wait until two readings a second apart differ by less than 1 %.
int64_t SettledRssKib(pid_t pid) {
  int64_t previous = StatusKib(pid, "VmRSS");
  int64_t settled = -1;
  (void)WaitFor("resident memory settled", 30s, [&] {
    std::this_thread::sleep_for(1s);
    int64_t now = StatusKib(pid, "VmRSS");
    bool stable = previous > 0 && std::llabs(now - previous) * 100 < previous;
    previous = now;
    if (stable) settled = now;
    return stable;
  });
  return settled;
}

TEST_F(ProcessMemoryGateTest, ResidentMemoryAfterSyncingTheGateFleetStaysWithinTheBaseline) {
  std::unique_ptr<BackgroundProcess> process;
  ASSERT_NE(StartAndWaitUntilReady(process), 0);
  int64_t rss = SettledRssKib(process->pid());
  ASSERT_GT(rss, 0) << "resident memory never settled\n" << process->Output();
  std::cout << "dra-controller VmRSS after syncing the gate fleet: " << rss / 1024 << " MiB ("
            << rss << " KiB), VmHWM " << StatusKib(process->pid(), "VmHWM") / 1024 << " MiB\n";

  if (std::getenv("DRA_WRITE_RSS_BASELINE") != nullptr) {
    std::ofstream(kBaseline) << nlohmann::json{{"rss_kib_after_sync", rss}}.dump(2) << "\n";
    GTEST_SKIP() << "baseline written to " << kBaseline;
  }
  std::ifstream in(kBaseline);
  auto baseline = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(baseline.is_object() && baseline.contains("rss_kib_after_sync"))
      << kBaseline << " is missing or malformed";
  auto allowed =
      static_cast<int64_t>(baseline["rss_kib_after_sync"].get<double>() * (1 + kTolerance));
  EXPECT_LE(rss, allowed) << "resident memory after sync grew more than 10 % over the baseline ("
                          << baseline["rss_kib_after_sync"] << " KiB); if intended, rerun with "
                          << "DRA_WRITE_RSS_BASELINE=1 and say why in the commit";
}

}  // namespace
}  // namespace dra::testing
