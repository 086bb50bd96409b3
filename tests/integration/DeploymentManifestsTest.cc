// The shipped manifests are accepted by the real API server, and the
// permissions they grant are enough: dra-controller running with the
// service account's token syncs its inventory and takes the leader Lease
// without a single "forbidden".
#include <gtest/gtest.h>
#include <signal.h>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class DeploymentManifestsTest : public ClusterTest {
 protected:
  void TearDown() override {
    if (controller_) {
      controller_->Signal(SIGTERM);
      controller_->Wait(15s);
    }
    if (applied_ && cluster_) {
      // Waits, so that a rerun does not meet a namespace still terminating.
      (void)cluster_->Kubectl(
          {"delete", "-k", Manifests(), "--ignore-not-found", "--wait=true", "--timeout=90s"});
    }
  }

  static std::string Manifests() { return std::string(DRA_REPO_ROOT) + "/manifests/base"; }

  // A kubeconfig for the same API server that authenticates as `token`.
  kube::Result<std::string> ServiceAccountKubeconfig(const std::string& token) {
    auto view = cluster_->Kubectl({"config", "view", "--raw", "--minify", "-o", "json"});
    if (!view.ok()) return view.status();
    json admin = json::parse(view->out, nullptr, false);
    if (admin.is_discarded() || !admin.contains("clusters")) {
      return kube::Status(kube::StatusCode::kInternal, "unreadable admin kubeconfig");
    }
    json config = {
        {"apiVersion", "v1"},
        {"kind", "Config"},
        {"clusters",
         json::array({{{"name", "test"}, {"cluster", admin["clusters"][0]["cluster"]}}})},
        {"users", json::array({{{"name", "dra-controller"}, {"user", {{"token", token}}}}})},
        {"contexts",
         json::array(
             {{{"name", "sa"},
               {"context",
                {{"cluster", "test"}, {"user", "dra-controller"}, {"namespace", "dra-system"}}}}})},
        {"current-context", "sa"}};
    return dir_->Write("kubeconfig", config.dump());
  }

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<BackgroundProcess> controller_;
  bool applied_ = false;
};

TEST_F(DeploymentManifestsTest, ServiceAccountPermissionsAreEnoughToSyncAndLead) {
  auto applied = cluster_->Kubectl({"apply", "-k", Manifests()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  applied_ = true;
  auto deployment = cluster_->GetJson({"get", "deployment", "dra-controller", "-n", "dra-system"});
  ASSERT_TRUE(deployment.ok()) << deployment.status().ToString();
  EXPECT_EQ((*deployment)["spec"]["template"]["spec"]["serviceAccountName"], "dra-controller");

  auto token = cluster_->Kubectl({"create", "token", "dra-controller", "-n", "dra-system"});
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  std::string bearer = token->out.substr(0, token->out.find_last_not_of("\n") + 1);
  dir_ = std::make_unique<TempDir>();
  auto kubeconfig = ServiceAccountKubeconfig(bearer);
  ASSERT_TRUE(kubeconfig.ok()) << kubeconfig.status().ToString();

  auto process = BackgroundProcess::Start(
      {std::string(DRA_BINARY_DIR) + "/dra-controller", "run", "--kubeconfig", *kubeconfig,
       "--leader-elect", "--leader-election-id", "dra-controller-manifest-test",
       "--metrics-bind-address", "127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0"});
  ASSERT_TRUE(process.ok()) << process.status().ToString();
  controller_ = std::move(*process);
  auto up = WaitFor(
      "the controller to sync its inventory and lead", 60s,
      [&] {
        std::string out = controller_->Output();
        return out.find("inventory synced") != std::string::npos &&
               out.find("became leader") != std::string::npos;
      },
      [&] { return controller_->Output(); });
  ASSERT_TRUE(up.ok()) << up.ToString();
  std::string out = controller_->Output();
  EXPECT_EQ(out.find("orbidden"), std::string::npos) << out;  // Forbidden or forbidden
  auto lease =
      cluster_->GetJson({"get", "lease", "dra-controller-manifest-test", "-n", "dra-system"});
  ASSERT_TRUE(lease.ok()) << lease.status().ToString();
  EXPECT_NE((*lease)["spec"].value("holderIdentity", ""), "");
}

}  // namespace
}  // namespace dra::testing
