// The operator's flow on the real node (NODE=1, hack/node/), with the
// controller's kubelet source reading what the real kubelet writes: the
// driver reports a running Pod's GPU Unhealthy → the kubelet's report (the
// driver gives CDI device IDs by default, so the report names the device by
// one) → a kubelet DeviceHealth and a NoExecute DeviceTaintRule → the
// device-taint eviction controller deletes the Pod and the kubelet stops its
// container. The device stays closed once the Pod is gone and across a
// controller restart; a diagnostic Pod tolerating the taint holds it while
// the driver goes silent (the kubelet's Unknown holds the rule); the driver's
// Healthy reopens it after the hold-off, and a new Pod runs on it.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "tests/support/RealNodeTest.h"
#include "tests/support/RunningController.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr const char* kSourceSelector = "dra-controller.dev/source=kubelet";

class RealNodeEvictionTest : public RealNodeTest {
 protected:
  void SetUp() override {
    RealNodeTest::SetUp();
    if (Skipped()) return;
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
  }

  void TearDown() override {
    StopController();
    RealNodeTest::TearDown();
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kSourceSelector, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                             "app.kubernetes.io/managed-by=dra-controller", "--wait=false"});
  }

  void StartController() {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {"--health-preview=0s", "--health-hold-off=5s"};
    options.wait_for = {"started devicehealth", "inventory synced"};
    options.what = "the controller to start device health";
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
  }

  void StopController() {
    if (!controller_) return;
    controller_->Stop();
    controller_.reset();
  }

  // The kubelet source's DeviceHealth of the node's `device`; null without one.
  json KubeletHealth(const std::string& device) {
    auto list = cluster_->GetJson({"get", "devicehealths", "-l", kSourceSelector});
    if (!list.ok()) return nullptr;
    for (const auto& item : list->value("items", json::array())) {
      if (item.value("/spec/device"_json_pointer, std::string()) == device &&
          item.value("/spec/pool"_json_pointer, std::string()) == node_->name()) {
        return item;
      }
    }
    return nullptr;
  }

  std::string State(const std::string& device) {
    json health = KubeletHealth(device);
    return health.is_null() ? "" : health.value("/spec/state"_json_pointer, std::string());
  }

  // The effect of the device's kubelet rule; "" without a rule.
  std::string RuleEffect(const std::string& device) {
    json health = KubeletHealth(device);
    if (health.is_null()) return "";
    auto rule = cluster_->GetJson(
        {"get", "devicetaintrule",
         "devicehealth-" + health.value("/metadata/name"_json_pointer, std::string()),
         "--ignore-not-found"});
    if (!rule.ok() || !rule->is_object()) return "";
    return rule->value("/spec/taint/effect"_json_pointer, std::string());
  }

  std::string Describe(const std::string& device) {
    return "DeviceHealth " + KubeletHealth(device).dump() + "\nrule effect " + RuleEffect(device) +
           "\nPod statuses: " + ResourcesStatus("train").dump() + "\ncontroller log (tail):\n" +
           LogTail();
  }

  std::string LogTail() {
    if (!controller_) return "(not running)";
    std::string log = controller_->Output();
    return log.size() > 6000 ? log.substr(log.size() - 6000) : log;
  }

  ::testing::AssertionResult Within(const std::string& what, std::chrono::seconds deadline,
                                    const std::function<bool()>& check, const std::string& device) {
    auto done = WaitFor(what, deadline, check, [&] { return Describe(device); });
    if (done.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << done.ToString();
  }

  // For `span`, the device's DeviceHealth keeps `state` and its rule NoExecute.
  ::testing::AssertionResult StaysClosed(const std::string& device, const std::string& state,
                                         std::chrono::seconds span) {
    auto until = Clock::now() + span;
    while (Clock::now() < until) {
      if (State(device) != state || RuleEffect(device) != "NoExecute") {
        return ::testing::AssertionFailure() << "the device opened:\n" << Describe(device);
      }
      std::this_thread::sleep_for(200ms);
    }
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult Created(const std::string& manifest) {
    kube::Status created = cluster_->Create(manifest);
    if (created.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << created.ToString() << "\n" << manifest;
  }

  // A CEL selector for the node's `device` (by its uuid attribute: CEL sees no device name).
  std::string ByName(const std::string& device) {
    std::string uuid;
    auto devices = node_->Devices();
    if (devices.ok()) {
      for (const auto& d : *devices) {
        if (d.value("device", "") == device) uuid = d.value("uuid", "");
      }
    }
    EXPECT_FALSE(uuid.empty()) << "no uuid for " << device;
    return "device.attributes[\"" + node_->driver() + "\"].uuid == \"" + uuid + "\"";
  }

  std::unique_ptr<RunningController> controller_;
};

TEST_F(RealNodeEvictionTest, AnUnhealthyGpuStopsItsPodStaysClosedAndReopensOnHealthy) {
  ASSERT_NO_FATAL_FAILURE(StartController());
  ASSERT_TRUE(Created(ClaimManifest("gpu")));
  ASSERT_TRUE(Created(ClaimPodManifest("train", "gpu")));
  ASSERT_TRUE(Within(
      "Pod train Running", 120s, [&] { return PodRunning("train"); }, ""));
  std::string device = AllocatedDevice("gpu");
  ASSERT_FALSE(device.empty());
  ASSERT_TRUE(Within(
      "the kubelet to report Pod train's GPU", 60s,
      [&] { return !ResourcesStatus("train").empty(); }, device));
  std::cout << "[ real node ] the kubelet's report: " << ResourcesStatus("train").dump() << "\n";

  // The driver's Unhealthy stops the Pod.
  auto marked = Clock::now();
  ASSERT_TRUE(node_->SetHealth(device, "Unhealthy", "Xid 79 (test)").ok());
  ASSERT_TRUE(Within(
      "a kubelet DeviceHealth Unhealthy and a NoExecute rule for " + device, 60s,
      [&] { return State(device) == "Unhealthy" && RuleEffect(device) == "NoExecute"; }, device));
  double tainted = SecondsSince(marked);
  ASSERT_TRUE(Within(
      "Pod train's container stopped and the Pod gone", 90s,
      [&] { return RunningTasks().empty() && Get("pod", "train").is_null(); }, device));
  std::cout << "[ real node ] driver Unhealthy -> NoExecute rule " << tainted
            << " s -> container stopped, Pod gone " << SecondsSince(marked) << " s\n";
  EXPECT_TRUE(Within(
      "the driver to unprepare claim gpu", 60s, [&] { return PreparedClaims().empty(); }, device));

  // No Pod reports the device any more, and the controller restarts: it stays closed.
  EXPECT_TRUE(StaysClosed(device, "Unhealthy", 3s));
  StopController();
  ASSERT_NO_FATAL_FAILURE(StartController());
  EXPECT_TRUE(StaysClosed(device, "Unhealthy", 5s));

  // A diagnostic Pod tolerating the taint gets the device; the driver goes
  // silent and the kubelet's Unknown holds the rule.
  json tolerate = json::array({{{"key", "dra-controller.dev/device-health"},
                                {"operator", "Exists"},
                                {"effect", "NoExecute"}}});
  ASSERT_TRUE(Created(ClaimManifest("diag", ByName(device), tolerate)));
  ASSERT_TRUE(Created(ClaimPodManifest("diag", "diag")));
  ASSERT_TRUE(Within(
      "Pod diag Running on the tainted GPU", 120s, [&] { return PodRunning("diag"); }, device));
  ASSERT_TRUE(node_->SetSilent(true).ok());
  auto silenced = Clock::now();
  ASSERT_TRUE(Within(
      "the kubelet's Unknown in the DeviceHealth", 150s, [&] { return State(device) == "Unknown"; },
      device));
  std::cout << "[ real node ] driver silent -> DeviceHealth Unknown " << SecondsSince(silenced)
            << " s\n";
  EXPECT_TRUE(StaysClosed(device, "Unknown", 3s));

  // The driver's Healthy reopens the device after the hold-off.
  ASSERT_TRUE(node_->SetSilent(false).ok());
  auto healed = Clock::now();
  ASSERT_TRUE(node_->SetHealth(device, "Healthy").ok());
  ASSERT_TRUE(Within(
      "the rule lifted and the DeviceHealth retired", 90s,
      [&] { return KubeletHealth(device).is_null(); }, device));
  double reopened = SecondsSince(healed);
  std::cout << "[ real node ] driver Healthy -> device reopened " << reopened
            << " s (hold-off 5 s)\n";
  EXPECT_GE(reopened, 5.0) << "the rule went before the hold-off";

  ASSERT_TRUE(cluster_->Kubectl({"delete", "pod", "diag", "-n", ns_, "--wait=true"}).ok());
  ASSERT_TRUE(Created(ClaimManifest("again", ByName(device))));
  ASSERT_TRUE(Created(ClaimPodManifest("again", "again")));
  EXPECT_TRUE(Within(
      "a new Pod Running on the reopened GPU", 120s, [&] { return PodRunning("again"); }, device));
}

}  // namespace
}  // namespace dra::testing
