#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "controller/cli/RunCommand.h"
#include "controller/cli/RunOptions.h"
#include "tests/support/TempDir.h"

namespace dra::cli {
namespace {

struct Outcome {
  int code;
  std::string err;
};

Outcome RunWith(
    std::vector<std::string> args, RunCommand::ShutdownWaiter waiter = [] { return SIGTERM; }) {
  RunCommand command(std::move(waiter));
  std::ostringstream out, err;
  int code = command.Run(args, {out, err});
  return {code, err.str()};
}

TEST(RunCommandTest, UsageErrorsComeBeforeConfigurationErrors) {
  auto outcome = RunWith(
      {"--kubeconfig", "/nonexistent/kubeconfig", "--leader-elect-lease-duration", "fifteen"});
  EXPECT_EQ(outcome.code, kExitUsage);
  EXPECT_EQ(outcome.err.rfind("error: --leader-elect-lease-duration", 0), 0u) << outcome.err;
  EXPECT_NE(outcome.err.find("See 'dra-controller run --help'"), std::string::npos);
  EXPECT_EQ(outcome.err.find("kubeconfig"), std::string::npos) << outcome.err;
}

TEST(RunCommandTest, RefusesElectionTimingsThatBreakTheSafetyMargin) {
  for (std::vector<std::string> flags :
       std::vector<std::vector<std::string>>{{"--leader-elect-retry-period", "0"},
                                             {"--leader-elect-retry-period", "-2s"},
                                             {"--leader-elect-renew-deadline", "15s"},
                                             {"--leader-elect-renew-deadline", "2s"},
                                             {"--graceful-shutdown-timeout", "0s"}}) {
    flags.insert(flags.begin(), {"--kubeconfig", "/nonexistent"});
    auto outcome = RunWith(flags);
    EXPECT_EQ(outcome.code, kExitUsage) << flags[2] << "=" << flags[3] << ": " << outcome.err;
    EXPECT_NE(outcome.err.find("--leader-elect") == std::string::npos
                  ? outcome.err.find("--graceful-shutdown-timeout")
                  : 0,
              std::string::npos)
        << outcome.err;
  }
}

TEST(RunCommandTest, RefusesMalformedBindAddressesAndLogLevels) {
  for (std::vector<std::string> flags :
       std::vector<std::vector<std::string>>{{"--metrics-bind-address", "8080"},
                                             {"--metrics-bind-address", ":99999"},
                                             {"--health-probe-bind-address", "::1:80"},
                                             {"--log-level", "chatty"},
                                             {"--leader-elect", "--leader-election-id", ""},
                                             {"positional"}}) {
    auto outcome = RunWith(flags);
    EXPECT_EQ(outcome.code, kExitUsage) << flags[0] << ": " << outcome.err;
    EXPECT_EQ(outcome.err.rfind("error: ", 0), 0u) << outcome.err;
  }
}

TEST(ValidateBindAddressTest, AcceptsTheFormsControllerRuntimeAccepts) {
  for (const char* address : {"0", ":8080", "127.0.0.1:0", "[::]:8081", "localhost:65535"}) {
    EXPECT_TRUE(ValidateBindAddress("metrics-bind-address", address).ok()) << address;
  }
}

TEST(RunCommandTest, AMissingKubeconfigIsAFailureNotAUsageError) {
  auto outcome = RunWith({"--kubeconfig", "/nonexistent/kubeconfig"});
  EXPECT_EQ(outcome.code, kExitFailure) << outcome.err;
}

// The process's thread ids (/proc/self/task).
std::set<std::string> ThreadIds() {
  std::set<std::string> ids;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return ids;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ids.insert(entry->d_name);
  }
  closedir(dir);
  return ids;
}

// Threads not in `before` whose signal mask leaves SIGINT, SIGTERM or SIGUSR1
// open: the kernel may deliver a process signal to any of them.
std::vector<std::string> ThreadsTakingShutdownSignals(const std::set<std::string>& before) {
  std::vector<std::string> open;
  for (const auto& id : ThreadIds()) {
    if (before.contains(id)) continue;
    std::ifstream status("/proc/self/task/" + id + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("SigBlk:", 0) != 0) continue;
      unsigned long long blocked = std::stoull(line.substr(7), nullptr, 16);
      for (int signal : {SIGINT, SIGTERM, SIGUSR1}) {
        if ((blocked & (1ULL << (signal - 1))) == 0) open.push_back(id);
      }
    }
  }
  return open;
}

// A kubeconfig whose server never answers: `run` starts and stops without one.
std::string UnreachableKubeconfig(dra::testing::TempDir& dir) {
  return dir.Write("kubeconfig", R"(apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)");
}

TEST(RunCommandTest, StartsAndStopsCleanlyOnSigterm) {
  dra::testing::TempDir dir;
  std::string kubeconfig = UnreachableKubeconfig(dir);
  bool waited = false;
  auto outcome = RunWith({"--kubeconfig", kubeconfig, "--metrics-bind-address", "127.0.0.1:0",
                          "--health-probe-bind-address", "127.0.0.1:0"},
                         [&] {
                           waited = true;
                           return SIGTERM;
                         });
  EXPECT_EQ(outcome.code, kExitOk) << outcome.err;
  EXPECT_TRUE(waited);
}

// Found by LeaderElectionTest: a helper thread started before `run` blocked
// the signals took its own SIGUSR1 and the process died of it (exit 138).
TEST(RunCommandTest, NoThreadItStartsTakesTheShutdownSignals) {
  dra::testing::TempDir dir;
  std::string kubeconfig = UnreachableKubeconfig(dir);
  std::vector<std::string> open;
  Outcome outcome{};
  std::thread runner([&] {
    // As in a fresh process: nothing blocked before Run.
    sigset_t set;
    sigemptyset(&set);
    for (int signal : {SIGINT, SIGTERM, SIGUSR1}) sigaddset(&set, signal);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    auto before = ThreadIds();
    outcome = RunWith({"--kubeconfig", kubeconfig, "--metrics-bind-address", "127.0.0.1:0",
                       "--health-probe-bind-address", "127.0.0.1:0"},
                      [&] {
                        open = ThreadsTakingShutdownSignals(before);
                        return SIGTERM;
                      });
  });
  runner.join();
  EXPECT_EQ(outcome.code, kExitOk) << outcome.err;
  EXPECT_TRUE(open.empty()) << open.size() << " signal openings in threads Run started, e.g. "
                            << open.front();
}

}  // namespace
}  // namespace dra::cli

namespace dra::cli {
namespace {

TEST(RunCommandTest, MetricsCertDirNeedsMetricsSecure) {
  auto outcome = RunWith({"--kubeconfig", "/nonexistent", "--metrics-cert-dir", "/tmp"});
  EXPECT_EQ(outcome.code, kExitUsage) << outcome.err;
  EXPECT_NE(outcome.err.find("--metrics-secure"), std::string::npos) << outcome.err;
}

}  // namespace
}  // namespace dra::cli
