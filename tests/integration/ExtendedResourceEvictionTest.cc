// The gap dra-controller closes on 1.36 (kubernetes issue 141290), against a
// real v1.36.3 control plane with DRADeviceTaintRules and
// resource.k8s.io/v1beta2 on: kube-controller-manager's device-taint eviction
// controller leaves a Pod whose only claim is its implicit extended-resource
// claim running on a device under a NoExecute DeviceTaintRule. With
// --health-extended-resource-evictions at its default (auto) dra-controller
// evicts that Pod within the preview + 10 s, with a DeviceTaintEviction Event;
// with it off the Pod is still bound then. Skipped on other releases (1.37
// evicts such Pods itself: DeviceHealthTest covers that).
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RunningController.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "ere-test.example.com";
constexpr const char* kResource = "example.com/gpu";
constexpr const char* kTestLabel = "dra-controller.dev/integration-test=extended-eviction";
const std::vector<std::string> kFleet{"ere-a:2:80Gi:gpu-ere-a"};
constexpr auto kPreview = 3s;

std::string Health(const std::string& name, const std::string& device) {
  return "apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\nmetadata:\n  name: " + name +
         "\n  labels:\n    dra-controller.dev/integration-test: extended-eviction\n"
         "spec:\n  driver: gpu.example.com\n  pool: ere-a\n  device: " +
         device + "\n  state: Unhealthy\n  reason: IntegrationTest\n";
}

class ExtendedResourceEvictionTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto version = client_->Get("/version");
    ASSERT_TRUE(version.ok()) << version.status().ToString();
    std::string git_version = version->value("gitVersion", "");
    if (!std::regex_search(git_version, std::regex(R"(^v1\.36\.)"))) {
      GTEST_SKIP() << "the control plane is " << git_version
                   << ": this gap is 1.36's (1.37 evicts extended-resource Pods itself)";
    }
    auto rules = cluster_->Kubectl({"api-resources", "--api-group=resource.k8s.io", "-o", "name"});
    if (!rules.ok() || rules->out.find("devicetaintrules") == std::string::npos) {
      GTEST_SKIP() << "DeviceTaintRules are not served: start 1.36 with "
                      "DRA_FEATURE_GATES=DRADeviceTaintRules=true "
                      "DRA_RUNTIME_CONFIG=resource.k8s.io/v1beta2=true";
    }
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(
        cluster_->Apply(DeviceClassManifest(kClass, kResource, FakeGpuModelSelector("gpu-ere-a")))
            .ok());
    auto ns = cluster_->CreateTestNamespace("ext-evict");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    if (controller_) {
      controller_->Stop();
      controller_.reset();
    }
    if (!cluster_ || ns_.empty()) return;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kTestLabel, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                             "app.kubernetes.io/managed-by=dra-controller", "--wait=false"});
    cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  void StartController(const std::string& evictions) {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.metrics_bind_address = "0";
    options.args = {"--health-preview",
                    "3s",
                    "--health-hold-off",
                    "3s",
                    "--health-storm-guard-percent",
                    "100",
                    "--health-extended-resource-evictions",
                    evictions};
    options.wait_for = {"started devicehealth", "inventory synced"};
    options.what = "the controller to sync and start device health";
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
  }

  json Get(const std::vector<std::string>& args) {
    auto got = cluster_->GetJson(args);
    return got.ok() && got->is_object() ? *got : json::object();
  }

  // The device of the Pod's implicit extended-resource claim, once allocated.
  std::string DeviceOf(const std::string& pod) {
    std::string claim =
        Get({"get", "pod", pod, "-n", ns_})
            .value("/status/extendedResourceClaimStatus/resourceClaimName"_json_pointer,
                   std::string());
    if (claim.empty()) return "";
    return Get({"get", "resourceclaim", claim, "-n", ns_})
        .value("/status/allocation/devices/results/0/device"_json_pointer, std::string());
  }

  bool Evicted(const std::string& pod) {
    json p = Get({"get", "pod", pod, "-n", ns_});
    return p.empty() || p.contains("/metadata/deletionTimestamp"_json_pointer);
  }

  // A Pod on a fake GPU, then an Unhealthy DeviceHealth for that GPU; returns
  // when the DeviceHealth is applied (the preview starts).
  void PodOnAnUnhealthyGpu(const std::string& pod) {
    ASSERT_TRUE(cluster_->Create(ExtendedResourcePodManifest(pod, ns_, kResource)).ok());
    std::string device;
    auto allocated = WaitFor(
        "the Pod to get a GPU", 60s, [&] { return !(device = DeviceOf(pod)).empty(); },
        [&] {
          return Get({"get", "pod", pod, "-n", ns_}).dump();
        });
    ASSERT_TRUE(allocated.ok()) << allocated.ToString();
    ASSERT_TRUE(cluster_->Apply(Health("ere-" + pod, device)).ok());
  }

  std::string Log() { return controller_ ? controller_->Output() : ""; }

  std::string ns_;
  std::unique_ptr<RunningController> controller_;
};

TEST_F(ExtendedResourceEvictionTest, DraControllerEvictsWhatThe136ControllerLeaves) {
  ASSERT_NO_FATAL_FAILURE(StartController("auto"));
  EXPECT_NE(Log().find("dra-controller evicts extended-resource Pods"), std::string::npos) << Log();
  ASSERT_NO_FATAL_FAILURE(PodOnAnUnhealthyGpu("victim"));
  auto evicted = WaitFor(
      "the Pod to be evicted within the preview + 10 s", kPreview + 10s,
      [&] { return Evicted("victim"); }, [&] { return Log(); });
  EXPECT_TRUE(evicted.ok()) << evicted.ToString();
  auto event = WaitFor("its DeviceTaintEviction Event", 30s, [&] {
    json events = Get({"get", "events", "-n", ns_, "--field-selector",
                       "involvedObject.name=victim,reason=DeviceTaintEviction"});
    return !events.value("items", json::array()).empty();
  });
  EXPECT_TRUE(event.ok()) << event.ToString() << "\n" << Log();
}

// The cluster's gap: with dra-controller's evictions off, nothing evicts the
// Pod although its device is under our NoExecute rule.
TEST_F(ExtendedResourceEvictionTest, WithoutItThePodStaysBound) {
  ASSERT_NO_FATAL_FAILURE(StartController("off"));
  ASSERT_NO_FATAL_FAILURE(PodOnAnUnhealthyGpu("survivor"));
  auto started = std::chrono::steady_clock::now();
  auto no_execute = WaitFor("NoExecute in force", kPreview + 10s, [&] {
    return Get({"get", "devicetaintrule", "devicehealth-ere-survivor"})
               .value("/spec/taint/effect"_json_pointer, std::string()) == "NoExecute";
  });
  ASSERT_TRUE(no_execute.ok()) << no_execute.ToString() << "\n" << Log();
  // The window the self-eviction is held to: if anything evicted the Pod in
  // it, the gap this feature closes would not be there.
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      kPreview + 10s - (std::chrono::steady_clock::now() - started));
  auto evicted = WaitFor("an eviction (none expected)", left, [&] { return Evicted("survivor"); });
  EXPECT_FALSE(evicted.ok()) << "the cluster evicted the Pod itself";
  json pod = Get({"get", "pod", "survivor", "-n", ns_});
  EXPECT_FALSE(pod.value("/spec/nodeName"_json_pointer, std::string()).empty()) << pod.dump();
}

}  // namespace
}  // namespace dra::testing
