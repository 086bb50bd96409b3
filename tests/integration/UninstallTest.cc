// Removing dra-controller never puts a sick GPU back to work. An Unhealthy
// DeviceHealth gets its NoExecute DeviceTaintRule from the real controller;
// then the controller is stopped (its Pods go with the uninstall) and the
// install is removed the documented way, `kubectl delete -k manifests/` or
// `helm uninstall`. The CRD, the DeviceHealth and so the rule (owned by the
// DeviceHealth) stay: checked after the garbage collector has demonstrably
// processed a deletion made after the uninstall. docs/uninstall.md's command
// then lifts the rule on purpose.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kHealth = "uninstall-un-a-gpu-0";
constexpr const char* kRule = "devicehealth-uninstall-un-a-gpu-0";
constexpr const char* kOurRules = "app.kubernetes.io/managed-by=dra-controller";
constexpr const char* kHelmNamespace = "dra-uninstall-test";
const std::vector<std::string> kFleet{"un-a:1:80Gi:gpu-un-a"};

std::string Repo(const std::string& path) { return std::string(DRA_REPO_ROOT) + "/" + path; }

class UninstallTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
  }

  void TearDown() override {
    StopController();
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l", kOurRules, "--wait=false"});
    if (cluster_->Kubectl({"get", "crd", "devicehealths.dra-controller.dev"}).ok()) {
      (void)cluster_->Kubectl({"delete", "devicehealth", kHealth, "--ignore-not-found"});
    } else {
      (void)cluster_->InstallDeviceHealthCrd();  // the rest of the suite expects it
    }
    if (helm_installed_) {
      (void)Helm({"uninstall", "dra-controller", "-n", kHelmNamespace, "--wait", "--timeout=90s"});
    }
    if (kustomize_installed_) {
      (void)cluster_->Kubectl({"delete", "-k", Repo("manifests"), "--ignore-not-found",
                               "--wait=true", "--timeout=90s"});
    }
    (void)cluster_->Kubectl({"delete", "namespace", kHelmNamespace, "--ignore-not-found",
                             "--wait=true", "--timeout=90s"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  // helm ARGS with its caches in a temporary directory; a non-zero exit is an error.
  kube::Result<ProcessOutput> Helm(const std::vector<std::string>& args) {
    const char* helm = std::getenv("DRA_HELM");
    if (helm == nullptr || !std::filesystem::exists(helm)) {
      return kube::Status(kube::StatusCode::kNotFound,
                          "DRA_HELM names no helm binary (hack/helm/build.sh builds it)");
    }
    std::string home = home_.path().string();
    std::vector<std::string> argv{"env", "HELM_CACHE_HOME=" + home + "/cache",
                                  "HELM_CONFIG_HOME=" + home + "/config",
                                  "HELM_DATA_HOME=" + home + "/data", helm};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = Subprocess::Run(argv, "", 180s);
    if (!result.ok()) return result.status();
    if (result->exit_code != 0) {
      return kube::Status(kube::StatusCode::kInternal, "helm " + args[0] + " exited " +
                                                           std::to_string(result->exit_code) +
                                                           ": " + result->err + result->out);
    }
    return result;
  }

  void StartController() {
    auto process =
        BackgroundProcess::Start({std::string(DRA_BINARY_DIR) + "/dra-controller", "run",
                                  "--kubeconfig", cluster_->kubeconfig(), "--metrics-bind-address",
                                  "127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0",
                                  "--health-preview", "1s", "--health-storm-guard-percent", "100"});
    ASSERT_TRUE(process.ok()) << process.status().ToString();
    controller_ = std::move(*process);
  }

  void StopController() {
    if (!controller_) return;
    controller_->Signal(SIGTERM);
    controller_->Wait(15s);
    controller_.reset();
  }

  std::string RuleEffect() {
    auto rule = cluster_->GetJson({"get", "devicetaintrule", kRule});
    if (!rule.ok()) return "";
    return rule->value("/spec/taint/effect"_json_pointer, std::string());
  }

  std::string RuleUid() {
    auto rule = cluster_->GetJson({"get", "devicetaintrule", kRule});
    return rule.ok() ? rule->value("/metadata/uid"_json_pointer, std::string()) : "";
  }

  // With the controller running, an Unhealthy GPU gets its NoExecute rule.
  void TaintAGpu() {
    ASSERT_NO_FATAL_FAILURE(StartController());
    std::string health = std::string(
                             "apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\n"
                             "metadata:\n  name: ") +
                         kHealth +
                         "\nspec:\n  driver: gpu.example.com\n  pool: un-a\n  device: gpu-0\n"
                         "  state: Unhealthy\n  reason: UninstallTest\n";
    ASSERT_TRUE(cluster_->Apply(health).ok());
    auto tainted = WaitFor(
        "the controller's NoExecute rule", 60s, [&] { return RuleEffect() == "NoExecute"; },
        [&] { return controller_->Output(); });
    ASSERT_TRUE(tainted.ok()) << tainted.ToString();
    // The uninstall deletes the Deployment, and with it the controller's Pods.
    StopController();
  }

  // A dependent whose owner is deleted now is collected: once it is gone the
  // garbage collector has seen the deletions the uninstall made before.
  void WaitForGarbageCollection() {
    auto owner = cluster_->Kubectl({"create", "configmap", "uninstall-gc-owner", "-n", "default",
                                    "-o", "jsonpath={.metadata.uid}"});
    ASSERT_TRUE(owner.ok()) << owner.status().ToString();
    json dependent = {{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata",
                       {{"name", "uninstall-gc-dependent"},
                        {"namespace", "default"},
                        {"ownerReferences",
                         {{{"apiVersion", "v1"},
                           {"kind", "ConfigMap"},
                           {"name", "uninstall-gc-owner"},
                           {"uid", owner->out}}}}}}};
    ASSERT_TRUE(cluster_->Create(dependent.dump()).ok());
    ASSERT_TRUE(
        cluster_->Kubectl({"delete", "configmap", "uninstall-gc-owner", "-n", "default"}).ok());
    auto collected = WaitFor("the garbage collector to collect a dependent", 60s, [&] {
      auto got = cluster_->Kubectl({"get", "configmap", "uninstall-gc-dependent", "-n", "default",
                                    "--ignore-not-found", "-o", "name"});
      return got.ok() && got->out.empty();
    });
    ASSERT_TRUE(collected.ok()) << collected.ToString();
  }

  void ExpectTheTaintInForce(const std::string& uid) {
    EXPECT_TRUE(cluster_->Kubectl({"get", "crd", "devicehealths.dra-controller.dev"}).ok())
        << "the uninstall deleted the DeviceHealth CRD";
    // The rule's owner: while it exists the garbage collector keeps the rule.
    EXPECT_TRUE(cluster_->Kubectl({"get", "devicehealth", kHealth}).ok())
        << "the uninstall deleted the DeviceHealth";
    ASSERT_NO_FATAL_FAILURE(WaitForGarbageCollection());
    EXPECT_EQ(RuleEffect(), "NoExecute") << "the sick GPU's DeviceTaintRule is gone";
    EXPECT_EQ(RuleUid(), uid);
  }

  std::unique_ptr<BackgroundProcess> controller_;
  TempDir home_;
  bool kustomize_installed_ = false;
  bool helm_installed_ = false;
};

TEST_F(UninstallTest, KustomizeUninstallLeavesTheTaintInForceUntilLiftedOnPurpose) {
  kustomize_installed_ = true;
  ASSERT_TRUE(cluster_->Kubectl({"apply", "-k", Repo("crds")}).ok());
  ASSERT_TRUE(cluster_->WaitForDeviceHealthKind().ok());
  auto applied = cluster_->Kubectl({"apply", "-k", Repo("manifests")});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  ASSERT_NO_FATAL_FAILURE(TaintAGpu());
  std::string uid = RuleUid();

  auto removed =
      cluster_->Kubectl({"delete", "-k", Repo("manifests"), "--wait=true", "--timeout=90s"});
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  kustomize_installed_ = false;
  ExpectTheTaintInForce(uid);

  // docs/uninstall.md: lifting the taints is a separate, deliberate step.
  ASSERT_TRUE(cluster_->Kubectl({"delete", "devicetaintrules", "-l", kOurRules}).ok());
  auto got =
      cluster_->Kubectl({"get", "devicetaintrule", kRule, "--ignore-not-found", "-o", "name"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->out, "");
}

TEST_F(UninstallTest, HelmUninstallLeavesTheTaintInForce) {
  helm_installed_ = true;
  auto install = Helm({"install", "dra-controller", Repo("manifests/helm/dra-controller"), "-n",
                       kHelmNamespace, "--create-namespace", "--timeout=90s"});
  ASSERT_TRUE(install.ok()) << install.status().ToString();
  ASSERT_TRUE(cluster_->WaitForDeviceHealthKind().ok());
  ASSERT_NO_FATAL_FAILURE(TaintAGpu());
  std::string uid = RuleUid();

  auto removed =
      Helm({"uninstall", "dra-controller", "-n", kHelmNamespace, "--wait", "--timeout=90s"});
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  helm_installed_ = false;
  ExpectTheTaintInForce(uid);
}

}  // namespace
}  // namespace dra::testing
