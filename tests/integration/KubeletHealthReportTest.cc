// The kubelet's device health reports against the real control plane. There
// is no kubelet, so the test writes Pod status allocatedResourcesStatus
// through the status subresource as the kubelet does (v1.37, name
// "claim:<claim>/<request>", resourceID "<driver>/<pool>/<device>") on a Pod
// the real kube-scheduler bound to a fake GPU through a ResourceClaim. The
// real dra-controller binary turns the Unhealthy report into a DeviceHealth
// labelled dra-controller.dev/source=kubelet, device health gives it a
// DeviceTaintRule for exactly that device, and a Healthy report removes the
// rule after the hold-off, and then the source deletes its DeviceHealth.
#include <gtest/gtest.h>

#include <thread>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RunningController.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "kh-test.example.com";
constexpr const char* kSourceSelector = "dra-controller.dev/source=kubelet";
const std::vector<std::string> kFleet{"kh-a:2:80Gi:gpu-kh-a"};

// A claim for one GPU of the test class that tolerates every taint, so the
// eviction controller leaves the Pod alone while its GPU is tainted NoExecute.
std::string ClaimManifest(const std::string& ns) {
  json request = {
      {"name", "gpu"},
      {"exactly",
       {{"deviceClassName", kClass}, {"tolerations", json::array({{{"operator", "Exists"}}})}}}};
  return json{{"apiVersion", "resource.k8s.io/v1"},
              {"kind", "ResourceClaim"},
              {"metadata", {{"name", "kh-gpu"}, {"namespace", ns}}},
              {"spec", {{"devices", {{"requests", json::array({request})}}}}}}
      .dump();
}

std::string PodManifest(const std::string& ns) {
  json container = {
      {"name", "main"},
      {"image", "registry.k8s.io/pause:3.10"},
      {"resources", {{"claims", json::array({{{"name", "gpu"}, {"request", "gpu"}}})}}}};
  return json{
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", "trainer"}, {"namespace", ns}}},
      {"spec",
       {{"automountServiceAccountToken", false},
        {"resourceClaims", json::array({{{"name", "gpu"}, {"resourceClaimName", "kh-gpu"}}})},
        {"containers", json::array({container})}}}}
      .dump();
}

// The container status the kubelet writes, reporting `health` for `resource_id`.
json KubeletStatus(const std::string& resource_id, const std::string& health) {
  json report = {{"name", "claim:gpu/gpu"},
                 {"resources", json::array({{{"resourceID", resource_id}, {"health", health}}})}};
  json status = {{"name", "main"},
                 {"image", "registry.k8s.io/pause:3.10"},
                 {"imageID", ""},
                 {"ready", false},
                 {"restartCount", 0},
                 {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}},
                 {"allocatedResourcesStatus", json::array({report})}};
  return {{"status", {{"containerStatuses", json::array({status})}}}};
}

class KubeletHealthReportTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(cluster_
                    ->Apply(DeviceClassManifest(kClass, "example.com/kh-test-gpu",
                                                FakeGpuModelSelector("gpu-kh-a")))
                    .ok());
    auto ns = cluster_->CreateTestNamespace("kubelet-health");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    StopController();
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kSourceSelector, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                             "app.kubernetes.io/managed-by=dra-controller", "--wait=false"});
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  void StartController(const std::vector<std::string>& extra = {}) {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {"--health-preview=0s", "--health-hold-off=2s"};
    options.args.insert(options.args.end(), extra.begin(), extra.end());
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

  json Get(const std::vector<std::string>& args) {
    auto got = cluster_->GetJson(args);
    return got.ok() && got->is_object() ? *got : json::object();
  }

  // The kubelet-sourced DeviceHealths.
  json KubeletHealths() {
    return Get({"get", "devicehealths", "-l", kSourceSelector}).value("items", json::array());
  }

  // The Pod bound by the scheduler and the device its claim got, as
  // "<driver>/<pool>/<device>" and as the claim's allocation result.
  void BindTrainer(std::string& resource_id, json& result) {
    ASSERT_TRUE(cluster_->Create(ClaimManifest(ns_)).ok());
    ASSERT_TRUE(cluster_->Create(PodManifest(ns_)).ok());
    ASSERT_TRUE(Eventually("the scheduler to bind the Pod to a GPU", [&] {
      json pod = Get({"get", "pod", "trainer", "-n", ns_});
      json claim = Get({"get", "resourceclaim", "kh-gpu", "-n", ns_});
      result = claim.value("/status/allocation/devices/results/0"_json_pointer, json::object());
      return !pod.value("/spec/nodeName"_json_pointer, std::string()).empty() &&
             result.contains("device");
    }));
    resource_id = result.value("driver", "") + "/" + result.value("pool", "") + "/" +
                  result.value("device", "");
  }

  kube::Status Report(const std::string& resource_id, const std::string& health,
                      const std::string& pod = "trainer") {
    auto patched =
        cluster_->Kubectl({"patch", "pod", pod, "-n", ns_, "--subresource=status", "--type=merge",
                           "-p", KubeletStatus(resource_id, health).dump()});
    return patched.ok() ? kube::Status::Ok() : patched.status();
  }

  // The kubelet DeviceHealth's state ("" without one) and whether its rule exists.
  std::string KubeletState() {
    json items = KubeletHealths();
    return items.size() == 1 ? items[0].value("/spec/state"_json_pointer, std::string()) : "";
  }

  // For `span`, the kubelet DeviceHealth stays Unhealthy and its rule in force:
  // a bounded watch for a change that must not come.
  ::testing::AssertionResult StaysTainted(const std::string& name, std::chrono::seconds span) {
    auto until = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < until) {
      std::string state = KubeletState();
      json rule = Get({"get", "devicetaintrule", "devicehealth-" + name});
      if (state != "Unhealthy" || rule.empty()) {
        return ::testing::AssertionFailure()
               << "state " << state << ", rule " << rule.dump() << "\n"
               << (controller_ ? controller_->Output() : "");
      }
      std::this_thread::sleep_for(250ms);
    }
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult Eventually(const std::string& what, std::function<bool()> check,
                                        std::function<std::string()> describe = nullptr,
                                        std::chrono::seconds deadline = 45s) {
    auto done = WaitFor(what, deadline, check, describe);
    if (done.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << done.ToString() << "\ncontroller log:\n"
                                         << (controller_ ? controller_->Output() : "");
  }

  std::string ns_;
  std::unique_ptr<RunningController> controller_;
};

TEST_F(KubeletHealthReportTest, UnhealthyReportTaintsExactlyThatDeviceUntilHealthyAgain) {
  ASSERT_NO_FATAL_FAILURE(StartController());
  std::string resource_id;
  json result;
  ASSERT_NO_FATAL_FAILURE(BindTrainer(resource_id, result));
  ASSERT_TRUE(Report(resource_id, "Unhealthy").ok());

  json health;
  ASSERT_TRUE(Eventually(
      "a kubelet DeviceHealth for the device",
      [&] {
        json items = KubeletHealths();
        if (items.size() != 1) return false;
        health = items[0];
        return health.value("/spec/state"_json_pointer, std::string()) == "Unhealthy";
      },
      [&] { return KubeletHealths().dump(); }));
  EXPECT_EQ(health["spec"].value("driver", ""), result.value("driver", ""));
  EXPECT_EQ(health["spec"].value("pool", ""), result.value("pool", ""));
  EXPECT_EQ(health["spec"].value("device", ""), result.value("device", ""));
  EXPECT_EQ(health["spec"].value("reason", ""), "KubeletReportedUnhealthy");
  EXPECT_NE(health["spec"].value("message", "").find(ns_ + "/trainer container main claim gpu/gpu"),
            std::string::npos)
      << health.dump();
  std::string name = health.value("/metadata/name"_json_pointer, std::string());

  json rule;
  ASSERT_TRUE(Eventually(
      "the DeviceTaintRule for exactly that device",
      [&] {
        rule = Get({"get", "devicetaintrule", "devicehealth-" + name});
        return !rule.empty();
      },
      [&] {
        return Get({"get", "devicehealth", name}).dump();
      }));
  EXPECT_EQ(rule["spec"]["deviceSelector"], (json{{"driver", result.value("driver", "")},
                                                  {"pool", result.value("pool", "")},
                                                  {"device", result.value("device", "")}}));

  ASSERT_TRUE(Report(resource_id, "Healthy").ok());
  ASSERT_TRUE(Eventually("the DeviceHealth back to Healthy", [&] {
    return Get({"get", "devicehealth", name}).value("/spec/state"_json_pointer, std::string()) ==
           "Healthy";
  }));
  auto healthy_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(Eventually("the rule to go after the hold-off", [&] {
    auto got = cluster_->Kubectl(
        {"get", "devicetaintrule", "devicehealth-" + name, "--ignore-not-found", "-o", "name"});
    return got.ok() && got->out.empty();
  }));
  EXPECT_GE(std::chrono::steady_clock::now() - healthy_at, 1s) << "the hold-off was skipped";
  ASSERT_TRUE(Eventually("the retired DeviceHealth to be deleted", [&] {
    auto got = cluster_->Kubectl({"get", "devicehealth", name, "--ignore-not-found", "-o", "name"});
    return got.ok() && got->out.empty();
  }));
}

// Issue 46: the Pod that reported its GPU Unhealthy is evicted and deleted;
// the source used to read "no report" as Healthy and put the GPU back. The
// evidence stays in the kubelet DeviceHealth, across a controller restart,
// until a person releases it (or a Healthy report comes).
TEST_F(KubeletHealthReportTest, AGpuStaysTaintedAfterItsReporterIsGoneUntilReleased) {
  ASSERT_NO_FATAL_FAILURE(StartController());
  std::string resource_id;
  json result;
  ASSERT_NO_FATAL_FAILURE(BindTrainer(resource_id, result));
  ASSERT_TRUE(Report(resource_id, "Unhealthy").ok());
  std::string name;
  ASSERT_TRUE(Eventually("the kubelet DeviceHealth and its rule", [&] {
    json items = KubeletHealths();
    if (items.size() != 1) return false;
    name = items[0].value("/metadata/name"_json_pointer, std::string());
    return !Get({"get", "devicetaintrule", "devicehealth-" + name}).empty();
  }));
  ASSERT_TRUE(cluster_
                  ->Kubectl({"delete", "pod", "trainer", "-n", ns_, "--grace-period=0", "--force",
                             "--wait=true"})
                  .ok());
  // Longer than the hold-off (2 s) and the source's reaction to the deletion.
  EXPECT_TRUE(StaysTainted(name, 5s)) << "the evicted reporter's GPU was put back";
  StopController();
  ASSERT_NO_FATAL_FAILURE(StartController());
  EXPECT_TRUE(StaysTainted(name, 5s)) << "a restart put the GPU back";

  ASSERT_TRUE(cluster_
                  ->Kubectl({"patch", "devicehealth", name, "--type=merge", "-p",
                             R"({"spec":{"state":"Healthy"}})"})
                  .ok());
  ASSERT_TRUE(Eventually("the released GPU's rule to go after the hold-off", [&] {
    auto got = cluster_->Kubectl(
        {"get", "devicetaintrule", "devicehealth-" + name, "--ignore-not-found", "-o", "name"});
    return got.ok() && got->out.empty();
  }));
  ASSERT_TRUE(Eventually("the released DeviceHealth to be retired",
                         [&] { return KubeletHealths().empty(); }));
}

// Issue 47: a Pod that holds no allocation of the GPU (its claim is another,
// never allocated) writes a report of it into its status, which the API
// server accepts. Nothing is tainted.
TEST_F(KubeletHealthReportTest, AReportFromAPodWithoutTheGpuTaintsNothing) {
  ASSERT_NO_FATAL_FAILURE(StartController());
  std::string resource_id;
  json result;
  ASSERT_NO_FATAL_FAILURE(BindTrainer(resource_id, result));
  json intruder = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", "intruder"}, {"namespace", ns_}}},
      {"spec",
       {{"automountServiceAccountToken", false},
        {"nodeName", Get({"get", "pod", "trainer", "-n", ns_})
                         .value("/spec/nodeName"_json_pointer, std::string())},
        {"resourceClaims", json::array({{{"name", "gpu"}, {"resourceClaimName", "not-mine"}}})},
        {"containers",
         json::array({{{"name", "main"},
                       {"image", "registry.k8s.io/pause:3.10"},
                       {"resources",
                        {{"claims", json::array({{{"name", "gpu"}, {"request", "gpu"}}})}}}}})}}}};
  ASSERT_TRUE(cluster_->Create(intruder.dump()).ok());
  ASSERT_TRUE(Report(resource_id, "Unhealthy", "intruder").ok());
  ASSERT_TRUE(Eventually("the ignored report in the controller's log", [&] {
    return controller_->Output().find("ignored Pod") != std::string::npos;
  }));
  EXPECT_TRUE(KubeletHealths().empty()) << KubeletHealths().dump();
  // The Pod that does hold the GPU is still believed.
  ASSERT_TRUE(Report(resource_id, "Unhealthy").ok());
  ASSERT_TRUE(
      Eventually("the holder's report to count", [&] { return KubeletState() == "Unhealthy"; }));
}

}  // namespace
}  // namespace dra::testing
