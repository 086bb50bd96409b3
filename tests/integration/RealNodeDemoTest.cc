// `make demo NODE=1` as a newcomer runs it: hack/demo.sh with DRA_NODE=1
// brings up a control plane of its own with the real node, prints the "try
// this next" guide and runs the controller in the foreground. The guide's
// real-node commands, run as printed (kubectl being the cluster's), take a
// running GPU Pod off the device its driver reports sick: the last one waits
// for the Pod to be gone. Ctrl-C stops it all. Runs beside the suite's own
// node (a second cluster on the machine), so only where a node can run:
// skipped when none is up (fails under DRA_REQUIRE_NODE=1).
#include <gtest/gtest.h>
#include <signal.h>

#include <regex>
#include <sstream>

#include "tests/support/DemoRun.h"
#include "tests/support/RealNodeTest.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

using std::chrono::seconds;

// The commands of the guide's real-node part, comments dropped.
std::vector<std::string> NodeGuideCommands(const std::string& output) {
  std::vector<std::string> commands;
  std::istringstream lines(output.substr(std::min(output.size(), output.find(" The real node "))));
  const std::regex comment(R"(\s+# .*$)");
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("====")) break;
    if (line.starts_with("   "))
      commands.push_back(std::regex_replace(line.substr(3), comment, ""));
  }
  return commands;
}

// Only where a node can run: RealNodeTest skips when the suite's node is not up.
using RealNodeDemoTest = RealNodeTest;

TEST_F(RealNodeDemoTest, TheGuideTakesARunningPodOffTheGpuItsDriverReportsSick) {
  TempDir dir;
  std::string cluster_dir = (dir.path() / "c").string();
  auto demo = DemoRun::StartSynced(cluster_dir, true, seconds(180));
  ASSERT_TRUE(demo.ok()) << demo.status().ToString();
  auto& process = **demo;

  std::vector<std::string> commands = NodeGuideCommands(process.Output());
  ASSERT_GE(commands.size(), 5u) << process.Output();
  const char* kubectl = std::getenv("DRA_KUBECTL");
  std::string script = "set -euo pipefail\nexport KUBECONFIG=" + cluster_dir +
                       "/kubeconfig\nkubectl() { " + std::string(kubectl ? kubectl : "kubectl") +
                       " \"$@\"; }\n";
  script += "set -x\n";
  for (const auto& command : commands) script += command + "\n";
  auto ran = Subprocess::Run({"bash", "-c", script});
  std::string log = ran.ok() ? ran->out + ran->err : ran.status().ToString();
  EXPECT_TRUE(ran.ok() && ran->exit_code == 0) << script << "\n"
                                               << log << "\ndemo:\n"
                                               << process.Output();
  EXPECT_NE(log.find("devicetaintrule"), std::string::npos) << log;

  process.SignalGroup(SIGINT);
  auto code = process.Wait(seconds(90));
  ASSERT_TRUE(code.has_value()) << "the demo did not stop after Ctrl-C:\n" << process.Output();
}

}  // namespace
}  // namespace dra::testing
