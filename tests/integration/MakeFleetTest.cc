// `make fleet` and hack/fake-gpu-fleet.sh publish to the control plane in
// CLUSTER_DIR. A stand-in kubectl (DRA_KUBECTL) records the KUBECONFIG each
// call sees, so the test needs no cluster.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

class MakeFleetTest : public ::testing::Test {
 protected:
  MakeFleetTest() {
    record_ = (dir_.path() / "kubeconfigs").string();
    kubectl_ = dir_.Write("kubectl",
                          "#!/bin/sh\n"
                          "echo \"$KUBECONFIG\" >> '" +
                              record_ +
                              "'\n"
                              "[ \"$1\" = get ] && exit 1\n"  // no node yet: the create path
                              "cat >/dev/null\n"
                              "exit 0\n");
    std::filesystem::permissions(kubectl_, std::filesystem::perms::owner_all);
    cluster_dir_ = (dir_.path() / "cluster").string();
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
  std::string record_, kubectl_, cluster_dir_;
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

}  // namespace
}  // namespace dra::testing
