// `make demo` as a newcomer runs it: hack/demo.sh brings up its own control
// plane with the fake GPU fleet and runs the controller in the foreground; a
// Ctrl-C (SIGINT to the job's process group) must stop all of it.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/DemoRun.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using std::chrono::seconds;

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Alive and not a zombie waiting for a parent that will never reap it.
bool ProcessAlive(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

// The PIDs cluster.sh recorded for the control plane it started.
std::set<pid_t> ControlPlanePids(const std::filesystem::path& cluster_dir) {
  std::set<pid_t> pids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(cluster_dir / "pids", ec)) {
    std::string text = ReadFile(entry.path());
    if (!text.empty()) pids.insert(static_cast<pid_t>(std::stol(text)));
  }
  return pids;
}

// Direct children of `pid` (the controller is the demo script's child).
std::set<pid_t> ChildrenOf(pid_t pid) {
  std::set<pid_t> children;
  std::stringstream in(
      ReadFile("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"));
  pid_t child;
  while (in >> child) children.insert(child);
  return children;
}

class DemoSmokeTest : public ClusterTest {};

TEST_F(DemoSmokeTest, DemoComesUpWithTheFleetAndCtrlCStopsEverything) {
  if (Skipped()) return;
  TempDir dir;
  std::filesystem::path cluster_dir = dir.path() / "cluster";
  auto demo = DemoRun::StartSynced(cluster_dir.string(), false, seconds(120));
  ASSERT_TRUE(demo.ok()) << demo.status().ToString();
  auto& process = **demo;
  std::string out = process.Output();
  EXPECT_NE(out.find("Try this next"), std::string::npos) << out;

  auto slices = cluster_->Kubectl({"--kubeconfig", (cluster_dir / "kubeconfig").string(), "get",
                                   "resourceslices", "-o", "name"});
  ASSERT_TRUE(slices.ok()) << slices.status().ToString();
  EXPECT_NE(slices->out.find("resourceslice"), std::string::npos) << slices->out << slices->err;

  std::set<pid_t> started = ControlPlanePids(cluster_dir);
  for (pid_t child : ChildrenOf(process.pid())) started.insert(child);
  ASSERT_GE(started.size(), 5u) << "expected etcd, apiserver, scheduler, controller-manager "
                                   "and the controller";

  process.SignalGroup(SIGINT);
  auto code = process.Wait(seconds(60));
  ASSERT_TRUE(code.has_value()) << "the demo did not stop after Ctrl-C:\n" << process.Output();
  for (pid_t pid : started) {
    kube::Status gone = WaitFor("process " + std::to_string(pid) + " to exit", seconds(15),
                                [&] { return !ProcessAlive(pid); });
    EXPECT_TRUE(gone.ok()) << gone.ToString();
  }
  EXPECT_FALSE(std::filesystem::exists(cluster_dir / "pids" / "kube-apiserver.pid"));
}

}  // namespace
}  // namespace dra::testing
