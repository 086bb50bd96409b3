// A leaked implicit claim, reproduced against the real v1.37.2 control plane:
// with kube-controller-manager stopped (no garbage collector, no claim
// controller) an extended-resource Pod gets its scheduler-made claim and is
// then force-deleted, so the claim stays allocated and blocks one of the
// node's two GPUs (a live Pod holds the other). The controller reports it after
// the grace period and leaves it alone; with --delete-leaked-claims it removes
// it, and a waiting Pod gets the GPU, while the live Pod's claim stays.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RunningController.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "leak-gpu.example.com";
constexpr const char* kResource = "example.com/leak-gpu";
constexpr const char* kNode = "leak-a";
constexpr const char* kKcm = "kube-controller-manager";
const std::vector<std::string> kFleet{"leak-a:2:40Gi:gpu-leak-40g"};

std::string ClassManifest() {
  return DeviceClassManifest(
      kClass, kResource,
      "device.driver == \"gpu.example.com\" && "
      "device.attributes[\"gpu.example.com\"].model.startsWith(\"gpu-leak-\")");
}

std::string GpuPod(const std::string& name, const std::string& ns) {
  return ExtendedResourcePodManifest(name, ns, kResource);
}

class LeakedClaimTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    const char* dir = std::getenv("DRA_CLUSTER_DIR");
    if (dir == nullptr || *dir == '\0') GTEST_SKIP() << "needs DRA_CLUSTER_DIR to stop " << kKcm;
    cluster_dir_ = dir;
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(cluster_->Apply(ClassManifest()).ok());
    auto ns = cluster_->CreateTestNamespace("leak");  // needs the SA controller: before the stop
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    controller_.reset();
    if (!cluster_) return;
    if (kcm_stopped_) {
      EXPECT_TRUE(ClusterScript("start").ok());
      EXPECT_TRUE(cluster_->WaitForControllersToCatchUp().ok());
    }
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  // cluster.sh stop|start kube-controller-manager.
  kube::Status ClusterScript(const std::string& verb) {
    auto out =
        Subprocess::Run({"env", "CLUSTER_DIR=" + cluster_dir_,
                         std::string(DRA_REPO_ROOT) + "/hack/control-plane/cluster.sh", verb, kKcm},
                        "", 120s);
    if (!out.ok()) return out.status();
    if (out->exit_code != 0) return kube::Status(kube::StatusCode::kInternal, out->err);
    kcm_stopped_ = verb == "stop";
    return kube::Status::Ok();
  }

  void StartController(std::vector<std::string> extra) {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.metrics_bind_address = "0";
    options.args = {"--extended-resource-leak-grace-period=2s"};
    options.args.insert(options.args.end(), extra.begin(), extra.end());
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
  }

  json Get(std::vector<std::string> args) {
    auto out = cluster_->GetJson(args);
    return out.ok() ? *out : json();
  }

  // Creates `pod`, waits until it is bound to kNode and has its implicit claim.
  kube::Result<std::string> BoundWithClaim(const std::string& pod) {
    if (auto created = cluster_->Create(GpuPod(pod, ns_)); !created.ok()) return created;
    std::string claim;
    auto joined = WaitFor(pod + " bound with its implicit claim", 60s, [&] {
      json p = Get({"get", "pod", pod, "-n", ns_});
      claim = p.value("/status/extendedResourceClaimStatus/resourceClaimName"_json_pointer,
                      std::string());
      return !claim.empty() && p.value("/spec/nodeName"_json_pointer, std::string()) == kNode;
    });
    if (!joined.ok()) return joined;
    return claim;
  }

  std::string NodeOf(const std::string& pod) {
    return Get({"get", "pod", pod, "-n", ns_}).value("/spec/nodeName"_json_pointer, std::string());
  }

  bool ClaimExists(const std::string& claim) {
    return cluster_->Kubectl({"get", "resourceclaim", claim, "-n", ns_}).ok();
  }

  std::vector<json> Events(const std::string& name, const std::string& reason) {
    auto list = Get({"get", "events", "-n", ns_, "--field-selector",
                     "involvedObject.name=" + name + ",reason=" + reason});
    return list.value("items", json::array());
  }

  ::testing::AssertionResult EventAppears(const std::string& name, const std::string& reason) {
    auto seen = WaitFor(reason + " on " + name, 60s, [&] { return !Events(name, reason).empty(); });
    if (seen.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << seen.ToString() << "\ncontroller output:\n"
                                         << (controller_ ? controller_->Output() : "");
  }

  std::string cluster_dir_;
  std::string ns_;
  bool kcm_stopped_ = false;
  std::unique_ptr<RunningController> controller_;
};

TEST_F(LeakedClaimTest, ForceDeletedPodsClaimIsReportedThenRemovedWithTheFlag) {
  ASSERT_TRUE(ClusterScript("stop").ok());
  auto keeper = BoundWithClaim("keeper");
  ASSERT_TRUE(keeper.ok()) << keeper.status().ToString();
  auto first = BoundWithClaim("first");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const std::string claim = *first;

  // Force deletion: no kubelet needs to confirm it, and with
  // kube-controller-manager stopped nothing releases the claim.
  ASSERT_TRUE(
      cluster_->Kubectl({"delete", "pod", "first", "-n", ns_, "--grace-period=0", "--force"}).ok());
  ASSERT_TRUE(cluster_->Create(GpuPod("second", ns_)).ok());

  StartController({});
  ASSERT_TRUE(EventAppears(claim, "ExtendedResourceClaimLeaked"));
  std::cout << "leak event: "
            << Events(claim, "ExtendedResourceClaimLeaked")[0].value("message", "") << "\n";
  // Reported, not removed: the claim still holds the only GPU.
  EXPECT_TRUE(
      Get({"get", "resourceclaim", claim, "-n", ns_}).contains("/status/allocation"_json_pointer));
  EXPECT_TRUE(Events(claim, "ExtendedResourceClaimLeakDeleted").empty());
  EXPECT_EQ(NodeOf("second"), "");

  controller_.reset();
  auto started = std::chrono::steady_clock::now();
  StartController({"--delete-leaked-claims"});
  auto removed = WaitFor("claim " + claim + " removed", 60s, [&] { return !ClaimExists(claim); });
  ASSERT_TRUE(removed.ok()) << removed.ToString() << "\n" << controller_->Output();
  std::cout << "claim removed "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - started)
                   .count()
            << " ms after the controller started with --delete-leaked-claims\n";
  ASSERT_TRUE(EventAppears(claim, "ExtendedResourceClaimLeakDeleted"));
  auto freed =
      WaitFor("pod second bound to the freed GPU", 90s, [&] { return NodeOf("second") == kNode; });
  EXPECT_TRUE(freed.ok()) << freed.ToString();
  // The live Pod's claim, audited from the same initial list, is untouched.
  EXPECT_TRUE(ClaimExists(*keeper));
  EXPECT_TRUE(Events(*keeper, "ExtendedResourceClaimLeaked").empty());
  EXPECT_TRUE(Events(*keeper, "ExtendedResourceClaimLeakDeleted").empty());
}

}  // namespace
}  // namespace dra::testing
