// `make fleet` and hack/fake-gpu-fleet.sh publish to the control plane in
// CLUSTER_DIR. A stand-in kubectl (DRA_KUBECTL) records the KUBECONFIG each
// call sees, and the arguments of each call, so the test needs no cluster.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

class MakeFleetTest : public ::testing::Test {
 protected:
  MakeFleetTest() { WriteKubectl(false); }

  // A stand-in kubectl for which the nodes exist (`get` succeeds: the
  // refresh path) or not (the create path). Each call appends its arguments
  // to args_, each ended by a NUL byte, and then "--" and a NUL byte.
  void WriteKubectl(bool nodes_exist) {
    record_ = (dir_.path() / "kubeconfigs").string();
    args_ = (dir_.path() / "args").string();
    std::string script = "#!/bin/sh\n";
    script += "echo \"$KUBECONFIG\" >> '" + record_ + "'\n";
    script += "printf '%s\\0' \"$@\" -- >> '" + args_ + "'\n";
    if (!nodes_exist) script += "[ \"$1\" = get ] && exit 1\n";  // the create path
    script += "cat >/dev/null\nexit 0\n";
    kubectl_ = dir_.Write("kubectl", script);
    std::filesystem::permissions(kubectl_, std::filesystem::perms::owner_all);
    cluster_dir_ = (dir_.path() / "cluster").string();
  }

  // The arguments of every call the stand-in kubectl saw.
  std::vector<std::vector<std::string>> Calls() const {
    std::ifstream in(args_);
    std::vector<std::vector<std::string>> calls(1);
    for (std::string arg; std::getline(in, arg, '\0');) {
      if (arg == "--") {
        calls.emplace_back();
      } else {
        calls.back().push_back(arg);
      }
    }
    calls.pop_back();
    return calls;
  }

  // Runs `env -u KUBECONFIG [ENV...] ARGV...` and returns the KUBECONFIGs recorded.
  std::vector<std::string> Run(const std::vector<std::string>& env,
                               const std::vector<std::string>& argv) {
    std::vector<std::string> command{"env", "-u", "KUBECONFIG", "DRA_KUBECTL=" + kubectl_};
    command.insert(command.end(), env.begin(), env.end());
    command.insert(command.end(), argv.begin(), argv.end());
    auto run = Subprocess::Run(command);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    if (run.ok()) {
      EXPECT_EQ(run->exit_code, 0) << run->out << run->err;
    }
    std::ifstream in(record_);
    std::vector<std::string> seen;
    for (std::string line; std::getline(in, line);) seen.push_back(line);
    return seen;
  }

  TempDir dir_;
  std::string record_, args_, kubectl_, cluster_dir_;
};

TEST_F(MakeFleetTest, MakeFleetUsesClusterDirEvenWithKubeconfigSet) {
  auto seen = Run({"KUBECONFIG=/elsewhere/kubeconfig"},
                  {"make", "-s", "-C", DRA_REPO_ROOT, "fleet", "CLUSTER_DIR=" + cluster_dir_});
  ASSERT_FALSE(seen.empty());
  for (const auto& kubeconfig : seen) EXPECT_EQ(kubeconfig, cluster_dir_ + "/kubeconfig");
}

TEST_F(MakeFleetTest, ScriptDefaultsToClusterDirKubeconfig) {
  auto seen = Run({"CLUSTER_DIR=" + cluster_dir_},
                  {std::string(DRA_REPO_ROOT) + "/hack/fake-gpu-fleet.sh", "apply"});
  ASSERT_FALSE(seen.empty());
  for (const auto& kubeconfig : seen) EXPECT_EQ(kubeconfig, cluster_dir_ + "/kubeconfig");
}

TEST_F(MakeFleetTest, ScriptKeepsAnExplicitKubeconfig) {
  auto seen = Run({"CLUSTER_DIR=" + cluster_dir_, "KUBECONFIG=/elsewhere/kubeconfig"},
                  {std::string(DRA_REPO_ROOT) + "/hack/fake-gpu-fleet.sh", "apply"});
  ASSERT_FALSE(seen.empty());
  for (const auto& kubeconfig : seen) EXPECT_EQ(kubeconfig, "/elsewhere/kubeconfig");
}

// On an existing node, apply refreshes its status through the status
// subresource, which takes a Node: the patch must put the status (and the
// Ready heartbeat in it) under "status", or the API server drops it.
TEST_F(MakeFleetTest, ApplyOnAnExistingNodePatchesTheStatusUnderStatus) {
  WriteKubectl(true);
  Run({"CLUSTER_DIR=" + cluster_dir_},
      {std::string(DRA_REPO_ROOT) + "/hack/fake-gpu-fleet.sh", "apply", "node-x:1:8Gi"});
  std::vector<std::string> patch;
  for (const auto& call : Calls()) {
    if (!call.empty() && call[0] == "patch") patch = call;
  }
  ASSERT_FALSE(patch.empty()) << "no kubectl patch call";
  EXPECT_NE(std::find(patch.begin(), patch.end(), "--subresource=status"), patch.end());
  auto body_at = std::find(patch.begin(), patch.end(), "-p");
  ASSERT_NE(body_at, patch.end());
  ASSERT_NE(body_at + 1, patch.end());
  auto body = nlohmann::json::parse(*(body_at + 1), nullptr, false);
  ASSERT_TRUE(body.is_object()) << *(body_at + 1);
  EXPECT_EQ(body.size(), 1u) << "only status is patched: " << body.dump();
  ASSERT_TRUE(body.contains("status")) << body.dump();
  const auto& conditions = body["status"]["conditions"];
  ASSERT_TRUE(conditions.is_array() && !conditions.empty()) << body.dump();
  EXPECT_EQ(conditions[0]["type"], "Ready");
  EXPECT_FALSE(conditions[0].value("lastHeartbeatTime", "").empty()) << body.dump();
}

}  // namespace
}  // namespace dra::testing
