// Device health against the real control plane, driven with `kubectl apply`
// of DeviceHealth manifests and the real dra-controller binary (short preview
// and hold-off through its flags): Degraded keeps new Pods off a GPU,
// Unhealthy gets the Pod that holds a GPU evicted by kube-controller-manager's
// device-taint eviction controller after the preview, Healthy lifts the
// taint after the hold-off, deleting a DeviceHealth removes its rule, a
// whole-pool DeviceHealth taints that pool only, a Degraded GPU that turns
// Unhealthy stays closed to Pending Pods through its preview, invalid manifests are
// refused by the CRD, a controller restart rewrites nothing, the
// unhealthy-devices gauge follows a DeviceHealth within seconds, and a taint
// the driver publishes is told from our rule's by `devices`, the tainted
// gauge and `check`.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include "src/base/Rfc3339.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RunningController.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "dh-test.example.com";
constexpr const char* kResource = "example.com/dh-test-gpu";
constexpr const char* kTestLabel = "dra-controller.dev/integration-test=device-health";
// dh-a: three GPUs the test Pods can use; dh-b: a pool for the whole-pool case.
const std::vector<std::string> kFleet{"dh-a:3:80Gi:gpu-dh-a", "dh-b:2:80Gi:gpu-dh-b"};

std::string ClassManifest() {
  return DeviceClassManifest(kClass, kResource, FakeGpuModelSelector("gpu-dh-a"));
}

std::string PodManifest(const std::string& name, const std::string& ns) {
  return ExtendedResourcePodManifest(name, ns, kResource);
}

// A DeviceHealth manifest as an operator writes it (YAML, for kubectl apply).
std::string Health(const std::string& name, const std::string& pool, const std::string& device,
                   const std::string& state, const std::string& extra = "") {
  std::string yaml =
      "apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\n"
      "metadata:\n  name: " +
      name +
      "\n  labels:\n    dra-controller.dev/integration-test: device-health\n"
      "spec:\n  driver: gpu.example.com\n  pool: " +
      pool + "\n";
  if (!device.empty()) yaml += "  device: " + device + "\n";
  return yaml + "  state: " + state + "\n  reason: IntegrationTest\n" + extra;
}

std::string Condition(const json& object, const std::string& type, const std::string& field) {
  for (const auto& c : object.value("/status/conditions"_json_pointer, json::array())) {
    if (c.value("type", "") == type) return c.value(field, "");
  }
  return "";
}

class DeviceHealthTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(cluster_->Apply(ClassManifest()).ok());
    auto ns = cluster_->CreateTestNamespace("health");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    ASSERT_NO_FATAL_FAILURE(StartController());
  }

  void TearDown() override {
    StopController();
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kTestLabel, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                             "app.kubernetes.io/managed-by=dra-controller", "--wait=false"});
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    (void)cluster_->Kubectl(
        {"delete", "resourceslice", "dh-twin-gpu.example.com", "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  void StartController(const std::string& storm_guard_percent = "100",
                       const std::string& preview = "3s") {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {
        "--health-preview", preview, "--health-hold-off", "3s", "--health-storm-guard-percent",
        storm_guard_percent};
    options.wait_for = {"started devicehealth", "inventory synced"};
    options.what = "the controller to sync and start device health";
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
    auto port = controller_->metrics_port();
    ASSERT_TRUE(port.ok()) << port.status().ToString();
    metrics_port_ = *port;
  }

  // GET /metrics; "" unless it answers 200.
  std::string Metrics() const {
    auto got = RunningController::Get(metrics_port_, "/metrics");
    return got.ok() && got->status == 200 ? got->body : "";
  }

  // dra_controller_devices_unhealthy of the test class in `pool`, as /metrics
  // shows it now ("" when the series is not there).
  std::string UnhealthyGauge(const std::string& pool) {
    std::string metrics = Metrics();
    std::regex series(R"(dra_controller_devices_unhealthy\{[^}]*pool=")" + pool +
                      R"("[^}]*device_class=")" + kClass + R"("\} (\S+))");
    std::smatch match;
    return std::regex_search(metrics, match, series) ? match[1].str() : "";
  }

  void StopController() {
    if (!controller_) return;
    controller_->Stop();
    controller_.reset();
  }

  // The object, or an empty JSON object when it does not exist (yet).
  json Get(const std::vector<std::string>& args) {
    auto got = cluster_->GetJson(args);
    return got.ok() && got->is_object() ? *got : json::object();
  }
  json HealthObject(const std::string& name) { return Get({"get", "devicehealth", name}); }
  json Rule(const std::string& health) {
    return Get({"get", "devicetaintrule", "devicehealth-" + health});
  }
  bool RuleGone(const std::string& health) {
    auto got = cluster_->Kubectl(
        {"get", "devicetaintrule", "devicehealth-" + health, "--ignore-not-found", "-o", "name"});
    return got.ok() && got->out.empty();
  }
  std::string Effect(const std::string& health) {
    return Rule(health).value("/spec/taint/effect"_json_pointer, std::string());
  }

  // The device the scheduler allocated to a Pod through its extended-resource claim.
  std::string DeviceOf(const std::string& pod) {
    json p = Get({"get", "pod", pod, "-n", ns_});
    std::string claim = p.value(
        "/status/extendedResourceClaimStatus/resourceClaimName"_json_pointer, std::string());
    if (claim.empty()) return "";
    json c = Get({"get", "resourceclaim", claim, "-n", ns_});
    return c.value("/status/allocation/devices/results/0/device"_json_pointer, std::string());
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
  int metrics_port_ = 0;
};

TEST_F(DeviceHealthTest, DegradedGpuIsAvoidedByNewPods) {
  ASSERT_TRUE(cluster_->Apply(Health("dh-a-gpu-1", "dh-a", "gpu-1", "Degraded")).ok());
  auto waited = cluster_->Kubectl(
      {"wait", "--for=condition=Tainted", "--timeout=30s", "devicehealth/dh-a-gpu-1"});
  ASSERT_TRUE(waited.ok()) << waited.status().ToString();
  EXPECT_EQ(Effect("dh-a-gpu-1"), "NoSchedule");
  for (const char* pod : {"p0", "p1"}) ASSERT_TRUE(cluster_->Create(PodManifest(pod, ns_)).ok());
  std::set<std::string> devices;
  ASSERT_TRUE(Eventually("both Pods to get a GPU", [&] {
    devices = {DeviceOf("p0"), DeviceOf("p1")};
    return !devices.contains("") && devices.size() == 2;
  }));
  EXPECT_EQ(devices, (std::set<std::string>{"gpu-0", "gpu-2"}));
  // The degraded GPU stays free: a third Pod does not get it.
  ASSERT_TRUE(cluster_->Create(PodManifest("p2", ns_)).ok());
  ASSERT_TRUE(Eventually("the third Pod to be unschedulable", [&] {
    return Condition(Get({"get", "pod", "p2", "-n", ns_}), "PodScheduled", "reason") ==
           "Unschedulable";
  }));
  EXPECT_EQ(DeviceOf("p2"), "");
}

TEST_F(DeviceHealthTest, UnhealthyGpuIsPreviewedThenItsPodEvicted) {
  ASSERT_TRUE(cluster_->Create(PodManifest("victim", ns_)).ok());
  std::string device;
  ASSERT_TRUE(
      Eventually("the Pod to get a GPU", [&] { return !(device = DeviceOf("victim")).empty(); }));
  ASSERT_TRUE(cluster_->Apply(Health("dh-victim", "dh-a", device, "Unhealthy")).ok());
  json health;
  ASSERT_TRUE(Eventually(
      "the preview to name the Pod",
      [&] {
        health = HealthObject("dh-victim");
        return Condition(health, "Tainted", "reason") == "Preview" &&
               health.value("/status/affectedPods"_json_pointer, json::array()) ==
                   json::array({ns_ + "/victim"});
      },
      [&] { return health.dump(); }));
  EXPECT_EQ(Effect("dh-victim"), "NoSchedule") << "closed to new Pods from the first moment";
  json pod = Get({"get", "pod", "victim", "-n", ns_});
  EXPECT_FALSE(pod.contains("/metadata/deletionTimestamp"_json_pointer)) << "evicted in preview";
  ASSERT_TRUE(Eventually("NoExecute after the preview",
                         [&] { return Effect("dh-victim") == "NoExecute"; }));
  ASSERT_TRUE(Eventually("the eviction controller to delete the Pod", [&] {
    json p = Get({"get", "pod", "victim", "-n", ns_});
    return p.empty() || p.contains("/metadata/deletionTimestamp"_json_pointer);
  }));
  ASSERT_TRUE(Eventually(
      "status to mirror EvictionInProgress",
      [&] {
        health = HealthObject("dh-victim");
        std::string rule_reason = Condition(Rule("dh-victim"), "EvictionInProgress", "reason");
        return !rule_reason.empty() &&
               Condition(health, "EvictionInProgress", "reason") == rule_reason;
      },
      [&] { return health.dump(); }));
}

// Issue 38: every GPU Degraded, a Pod Pending; one GPU turns Unhealthy. Its
// preview must not lift the NoSchedule in force, or the scheduler binds the
// Pending Pod to that GPU within a second, to have it evicted when the
// preview ends. `kubectl wait --for=condition=Enforced` returns once
// NoExecute is in force, not during the preview.
TEST_F(DeviceHealthTest, EscalatingGpuStaysClosedToAPendingPodThroughThePreview) {
  StopController();
  ASSERT_NO_FATAL_FAILURE(StartController("100", "5s"));
  const std::vector<std::string> gpus{"gpu-0", "gpu-1", "gpu-2"};
  for (const auto& gpu : gpus) {
    ASSERT_TRUE(cluster_->Apply(Health("dh-esc-" + gpu, "dh-a", gpu, "Degraded")).ok());
  }
  for (const auto& gpu : gpus) {
    auto waited = cluster_->Kubectl(
        {"wait", "--for=condition=Tainted", "--timeout=30s", "devicehealth/dh-esc-" + gpu});
    ASSERT_TRUE(waited.ok()) << waited.status().ToString();
    ASSERT_EQ(Effect("dh-esc-" + gpu), "NoSchedule");
  }
  ASSERT_TRUE(cluster_->Create(PodManifest("waiting", ns_)).ok());
  ASSERT_TRUE(Eventually("the Pod to be unschedulable", [&] {
    return Condition(Get({"get", "pod", "waiting", "-n", ns_}), "PodScheduled", "reason") ==
           "Unschedulable";
  }));

  ASSERT_TRUE(cluster_->Apply(Health("dh-esc-gpu-1", "dh-a", "gpu-1", "Unhealthy")).ok());
  std::set<std::string> effects;  // of the escalating GPU's rule, as polled
  std::set<std::string> enforced_reasons;
  std::string node;  // where the Pending Pod went, if anywhere
  ASSERT_TRUE(Eventually(
      "NoExecute after the preview",
      [&] {
        std::string effect = Effect("dh-esc-gpu-1");
        effects.insert(effect);
        enforced_reasons.insert(Condition(HealthObject("dh-esc-gpu-1"), "Enforced", "reason"));
        json pod = Get({"get", "pod", "waiting", "-n", ns_});
        if (pod.empty()) node = "(deleted)";
        if (node.empty()) node = pod.value("/spec/nodeName"_json_pointer, std::string());
        return effect == "NoExecute";
      },
      [&] { return "node " + node; }, 30s));
  EXPECT_TRUE(enforced_reasons.contains("Preview")) << "the preview was not seen";
  EXPECT_FALSE(effects.contains("None")) << "the preview lifted NoSchedule";
  EXPECT_EQ(node, "") << "the Pending Pod was placed on a tainted GPU";
  auto waited = cluster_->Kubectl(
      {"wait", "--for=condition=Enforced", "--timeout=30s", "devicehealth/dh-esc-gpu-1"});
  ASSERT_TRUE(waited.ok()) << waited.status().ToString();
  json pod = Get({"get", "pod", "waiting", "-n", ns_});
  ASSERT_FALSE(pod.empty()) << "the Pod was evicted";
  EXPECT_EQ(pod.value("/spec/nodeName"_json_pointer, std::string()), "");
  EXPECT_EQ(DeviceOf("waiting"), "");
}

// Issue 46: every ordered pair of the four states, with a Pending Pod that
// can only go to the GPU under test (its two neighbours are Degraded). The
// walk H D H U H K D U D K U K H passes each ordered pair once. The safety
// rule says when the GPU is closed; the Pod must never bind while it is, and
// must bind once it reopens (Healthy after its hold-off, Unknown after
// Healthy). Where the GPU was open, the Pod arrives as soon as the controller
// has seen the new state. On the code before the fix, H->U and K->U (a None
// preview) and U->K and D->K (Unknown lifted the taint) let the Pod bind.
TEST_F(DeviceHealthTest, APendingPodNeverBindsToAClosedGpuAcrossEveryPairOfStates) {
  for (const char* gpu : {"gpu-0", "gpu-2"}) {
    ASSERT_TRUE(
        cluster_->Apply(Health(std::string("dh-pair-") + gpu, "dh-a", gpu, "Degraded")).ok());
    ASSERT_TRUE(Eventually("a neighbour closed",
                           [&] { return Effect(std::string("dh-pair-") + gpu) == "NoSchedule"; }));
  }
  const std::vector<std::string> walk{"Healthy",   "Degraded", "Healthy",   "Unhealthy", "Healthy",
                                      "Unknown",   "Degraded", "Unhealthy", "Degraded",  "Unknown",
                                      "Unhealthy", "Unknown",  "Healthy"};
  constexpr auto kHoldOff = 3s;
  bool closed = false;  // what the safety rule says of gpu-1 now
  int pods = 0;
  std::string pending;  // the Pending Pod's name, if one waits
  for (size_t step = 0; step < walk.size(); ++step) {
    const std::string& state = walk[step];
    std::string transition = step == 0 ? state : walk[step - 1] + " -> " + state;
    SCOPED_TRACE(transition);
    if (closed && pending.empty()) {
      pending = "waiting-" + std::to_string(++pods);
      ASSERT_TRUE(cluster_->Create(PodManifest(pending, ns_)).ok());
      ASSERT_TRUE(Eventually("the Pod to be unschedulable", [&] {
        return Condition(Get({"get", "pod", pending, "-n", ns_}), "PodScheduled", "reason") ==
               "Unschedulable";
      }));
    }
    // The rule: Degraded and Unhealthy close; Unknown keeps what was; Healthy
    // reopens only after the hold-off.
    bool closes = state == "Degraded" || state == "Unhealthy" || (state == "Unknown" && closed);
    bool reopens = !closes;
    auto applied = std::chrono::steady_clock::now();
    ASSERT_TRUE(cluster_->Apply(Health("dh-pair", "dh-a", "gpu-1", state)).ok());
    if (!closed && closes) {
      // Open until now: a Pod arrives the moment the controller has seen the
      // new state (the preview must already keep it off).
      ASSERT_TRUE(Eventually("the controller to see the state", [&] {
        json health = HealthObject("dh-pair");
        return health.value("/status/observedGeneration"_json_pointer, 0) ==
               health.value("/metadata/generation"_json_pointer, -1);
      }));
      pending = "waiting-" + std::to_string(++pods);
      ASSERT_TRUE(cluster_->Create(PodManifest(pending, ns_)).ok());
    }
    std::string bound_at;  // "<node> after <ms>"
    auto settled = WaitFor(
        "the transition to settle", 30s,
        [&] {
          auto since = std::chrono::steady_clock::now() - applied;
          if (!pending.empty() && bound_at.empty()) {
            std::string node =
                Get({"get", "pod", pending, "-n", ns_}).value("/spec/nodeName"_json_pointer, "");
            if (!node.empty()) {
              bound_at = node + " after " +
                         std::to_string(
                             std::chrono::duration_cast<std::chrono::milliseconds>(since).count()) +
                         " ms";
              bool allowed =
                  reopens && (state != "Healthy" || !closed || since >= kHoldOff - 500ms);
              EXPECT_TRUE(allowed) << "the Pending Pod bound to the closed GPU: " << bound_at;
            }
          }
          json health = HealthObject("dh-pair");
          bool current = health.value("/status/observedGeneration"_json_pointer, 0) ==
                         health.value("/metadata/generation"_json_pointer, -1);
          bool enforced = current && Condition(health, "Enforced", "status") == "True";
          return enforced && (pending.empty() || !reopens || !bound_at.empty());
        },
        [&] { return HealthObject("dh-pair").dump() + " bound: " + bound_at; });
    ASSERT_TRUE(settled.ok()) << settled.ToString() << "\n" << controller_->Output();
    closed = closes;
    if (!bound_at.empty()) {
      ASSERT_TRUE(cluster_
                      ->Kubectl({"delete", "pod", pending, "-n", ns_, "--grace-period=0", "--force",
                                 "--wait=true"})
                      .ok());
      pending.clear();
    }
  }
}

TEST_F(DeviceHealthTest, HealthyLiftsTheTaintAfterTheHoldOffAndDeleteRemovesTheRule) {
  ASSERT_TRUE(cluster_->Apply(Health("dh-a-gpu-0", "dh-a", "gpu-0", "Degraded")).ok());
  ASSERT_TRUE(Eventually("the rule", [&] { return Effect("dh-a-gpu-0") == "NoSchedule"; }));
  std::string uid = Rule("dh-a-gpu-0").value("/metadata/uid"_json_pointer, std::string());
  auto recovered_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(cluster_->Apply(Health("dh-a-gpu-0", "dh-a", "gpu-0", "Healthy")).ok());
  ASSERT_TRUE(Eventually("the hold-off", [&] {
    return Condition(HealthObject("dh-a-gpu-0"), "Tainted", "reason") == "HoldOff";
  }));
  EXPECT_EQ(Rule("dh-a-gpu-0").value("/metadata/uid"_json_pointer, std::string()), uid);
  ASSERT_TRUE(
      Eventually("the rule to go after the hold-off", [&] { return RuleGone("dh-a-gpu-0"); }));
  EXPECT_GE(std::chrono::steady_clock::now() - recovered_at, 2s);  // 3 s, to the second
  EXPECT_EQ(Condition(HealthObject("dh-a-gpu-0"), "Tainted", "status"), "False");

  ASSERT_TRUE(cluster_->Apply(Health("dh-a-gpu-2", "dh-a", "gpu-2", "Degraded")).ok());
  ASSERT_TRUE(Eventually("the second rule", [&] { return !Rule("dh-a-gpu-2").empty(); }));
  ASSERT_TRUE(cluster_->Kubectl({"delete", "devicehealth", "dh-a-gpu-2"}).ok());
  ASSERT_TRUE(Eventually("deleting the DeviceHealth to remove its rule",
                         [&] { return RuleGone("dh-a-gpu-2"); }));
}

// The gauge re-renders on the DeviceHealth's own change, not on a timer (its
// safety net is 10 min) and not only when a rule changes: an Unhealthy GPU
// still in its preview and the Unknown one it turns into both have the same
// NoSchedule rule, so going from one to the other changes nothing but the
// DeviceHealth.
TEST_F(DeviceHealthTest, UnhealthyGaugeFollowsTheDeviceHealthAlone) {
  StopController();
  ASSERT_NO_FATAL_FAILURE(StartController("100", "10m"));
  ASSERT_TRUE(cluster_->Apply(Health("dh-gauge", "dh-a", "gpu-1", "Unhealthy")).ok());
  std::string gauge;
  ASSERT_TRUE(Eventually(
      "the gauge at 1", [&] { return (gauge = UnhealthyGauge("dh-a")) == "1"; },
      [&] { return gauge; }, 15s));
  // kube-controller-manager writes the rule's status once; then the rule
  // stays as it is. Two render intervals, so a render its last change queued has run.
  ASSERT_TRUE(Eventually("the rule's status", [&] {
    return Effect("dh-gauge") == "NoSchedule" &&
           !Condition(Rule("dh-gauge"), "EvictionInProgress", "reason").empty();
  }));
  std::this_thread::sleep_for(2s);
  std::string rule_version =
      Rule("dh-gauge").value("/metadata/resourceVersion"_json_pointer, std::string());
  ASSERT_TRUE(cluster_->Apply(Health("dh-gauge", "dh-a", "gpu-1", "Unknown")).ok());
  EXPECT_TRUE(Eventually(
      "the gauge at 0", [&] { return (gauge = UnhealthyGauge("dh-a")) == "0"; },
      [&] { return gauge; }, 10s));
  EXPECT_EQ(Rule("dh-gauge").value("/metadata/resourceVersion"_json_pointer, std::string()),
            rule_version)
      << "the rule changed, so this did not test the DeviceHealth's change alone";
}

TEST_F(DeviceHealthTest, WholePoolTaintsThatPoolOnly) {
  ASSERT_TRUE(cluster_->Apply(Health("dh-b-all", "dh-b", "", "Degraded")).ok());
  json health;
  ASSERT_TRUE(Eventually(
      "the whole-pool rule",
      [&] {
        health = HealthObject("dh-b-all");
        return Condition(health, "Tainted", "status") == "True" &&
               Condition(health, "DeviceFound", "status") == "True";
      },
      [&] { return health.dump(); }));
  EXPECT_EQ(health.value("/status/matchedDevices"_json_pointer, 0), 2);
  EXPECT_EQ(Rule("dh-b-all")["spec"]["deviceSelector"],
            (json{{"driver", "gpu.example.com"}, {"pool", "dh-b"}}));
  // dh-a's GPUs stay usable.
  ASSERT_TRUE(cluster_->Create(PodManifest("on-a", ns_)).ok());
  ASSERT_TRUE(Eventually("a Pod to get a dh-a GPU", [&] { return !DeviceOf("on-a").empty(); }));
}

TEST_F(DeviceHealthTest, StormGuardHoldsTheSecondGpuBackUntilTheFirstRecovers) {
  StopController();
  // 25 % of dh-a's 3 GPUs rounds down to 0, and one is always allowed: 1.
  // (The driver's share is 25 % of all its GPUs in the cluster, at least 1.)
  ASSERT_NO_FATAL_FAILURE(StartController("25"));
  ASSERT_TRUE(cluster_->Apply(Health("dh-storm-0", "dh-a", "gpu-0", "Unhealthy")).ok());
  ASSERT_TRUE(Eventually("the first GPU under NoExecute",
                         [&] { return Effect("dh-storm-0") == "NoExecute"; }));
  ASSERT_TRUE(cluster_->Apply(Health("dh-storm-1", "dh-a", "gpu-1", "Unhealthy")).ok());
  json held;
  ASSERT_TRUE(Eventually(
      "the second GPU held at NoSchedule by the storm guard",
      [&] {
        held = HealthObject("dh-storm-1");
        return Condition(held, "Tainted", "reason") == "StormGuard" &&
               Effect("dh-storm-1") == "NoSchedule";
      },
      [&] { return held.dump(); }));
  ASSERT_TRUE(cluster_->Kubectl({"delete", "devicehealth", "dh-storm-0"}).ok());
  ASSERT_TRUE(Eventually("the held GPU to be promoted once room frees up",
                         [&] { return Effect("dh-storm-1") == "NoExecute"; }));
}

// Issue 46: 50 alerts fire on a fleet of 7 x 8 GPUs, then all resolve. While
// they resolve, the devices under NoExecute keep it for their hold-off; they
// used to stop counting, and the held-back devices were promoted past the
// caps (27 NoExecute against a driver cap of 13). Polled every 200 ms: no
// pool and not the driver ever has more devices under NoExecute than its cap.
TEST_F(DeviceHealthTest, FiftyAlertsFiringThenResolvingNeverExceedTheCaps) {
  StopController();
  std::vector<std::string> storm_fleet;
  for (int n = 0; n < 7; ++n)
    storm_fleet.push_back("dh-s" + std::to_string(n) + ":8:80Gi:gpu-dh-s");
  auto fleet = ApplyFakeFleet(*cluster_, storm_fleet);
  ASSERT_TRUE(fleet.ok()) << fleet.ToString();
  ASSERT_NO_FATAL_FAILURE(StartController("25", "0s"));
  // The driver's devices in the cluster now, and so its cap; each pool's cap is 2 of 8.
  json slices = Get({"get", "resourceslices"});
  int driver_devices = 0;
  for (const auto& slice : slices.value("items", json::array())) {
    if (slice.value("/spec/driver"_json_pointer, std::string()) != "gpu.example.com") continue;
    driver_devices +=
        static_cast<int>(slice.value("/spec/devices"_json_pointer, json::array()).size());
  }
  const int driver_cap = std::max(1, driver_devices / 4), pool_cap = 2;
  auto alerts = [&](const std::string& state) {
    std::string yaml;
    for (int i = 0; i < 50; ++i) {
      std::string pool = "dh-s" + std::to_string(i / 8), gpu = "gpu-" + std::to_string(i % 8);
      yaml += "---\n" + Health("dh-alert-" + std::to_string(i), pool, gpu, state);
    }
    return cluster_->Apply(yaml);
  };
  std::atomic<bool> stop{false};
  std::atomic<int> polls{0};
  std::string worst;  // the first poll over a cap
  std::mutex mu;
  std::thread poller([&] {
    while (!stop) {
      std::map<std::string, int> per_pool;
      int total = 0;
      auto listed = client_->Get("/apis/resource.k8s.io/v1/devicetaintrules");
      if (!listed.ok()) {
        std::this_thread::sleep_for(200ms);
        continue;
      }
      for (const auto& rule : listed->value("items", json::array())) {
        if (rule.value("/spec/taint/effect"_json_pointer, std::string()) != "NoExecute") continue;
        ++per_pool[rule.value("/spec/deviceSelector/pool"_json_pointer, std::string())];
        ++total;
      }
      ++polls;
      for (const auto& [pool, count] : per_pool) {
        std::lock_guard lock(mu);
        if (count > pool_cap && worst.empty()) worst = pool + ": " + std::to_string(count);
      }
      if (total > driver_cap) {
        std::lock_guard lock(mu);
        if (worst.empty()) worst = "driver: " + std::to_string(total);
      }
      std::this_thread::sleep_for(200ms);
    }
  });
  ASSERT_TRUE(alerts("Unhealthy").ok());
  EXPECT_TRUE(Eventually("every alert's rule", [&] {
    return static_cast<int>(
               Get({"get", "devicetaintrules", "-l", "app.kubernetes.io/managed-by=dra-controller"})
                   .value("items", json::array())
                   .size()) >= 50;
  }));
  ASSERT_TRUE(alerts("Healthy").ok());
  EXPECT_TRUE(Eventually(
      "every rule gone after the hold-off",
      [&] {
        for (const auto& rule : Get({"get", "devicetaintrules"}).value("items", json::array())) {
          if (rule.value("/metadata/name"_json_pointer, std::string())
                  .rfind("devicehealth-dh-alert-", 0) == 0)
            return false;
        }
        return true;
      },
      nullptr, 60s));
  stop = true;
  poller.join();
  EXPECT_GE(polls.load(), 10);
  EXPECT_EQ(worst, "") << "over the cap (pool " << pool_cap << ", driver " << driver_cap << ")\n"
                       << controller_->Output();
  (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kTestLabel, "--wait=true"});
  RemoveFakeFleet(*cluster_, storm_fleet);
}

// Issue 55: stateSince was kept in whole seconds, rounded down, and the
// hold-off ran from it, so rules were lifted up to a second early, and a new
// leader did the same after a failover. Fifty DeviceHealths are released one
// by one from half-way through a second (each write timed), the leader is
// killed a few seconds into the 10 s hold-off, and the rules are polled every
// 100 ms: none may be gone before its own release was sent plus the hold-off,
// and every stateSince is that write's millisecond or later.
TEST_F(DeviceHealthTest, NoRuleIsLiftedBeforeItsHoldOffAcrossAFailover) {
  StopController();
  std::vector<std::string> fleet_50;
  for (int n = 0; n < 7; ++n) fleet_50.push_back("dh-h" + std::to_string(n) + ":8:80Gi:gpu-dh-h");
  auto fleet = ApplyFakeFleet(*cluster_, fleet_50);
  ASSERT_TRUE(fleet.ok()) << fleet.ToString();
  constexpr auto kHoldOff = 10s;
  std::string lease = "dh-hold-off-" + std::to_string(::getpid());
  std::vector<std::unique_ptr<RunningController>> replicas;
  for (int r = 0; r < 2; ++r) {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {"--health-preview",
                    "0s",
                    "--health-hold-off",
                    "10s",
                    "--health-storm-guard-percent",
                    "100",
                    "--leader-elect",
                    "--leader-election-namespace",
                    "default",
                    "--leader-election-id",
                    lease,
                    "--leader-elect-lease-duration",
                    "4s",
                    "--leader-elect-renew-deadline",
                    "3s",
                    "--leader-elect-retry-period",
                    "500ms"};
    options.wait_for = {"inventory synced"};
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    replicas.push_back(std::move(*started));
  }
  auto leader = [&]() -> int {
    for (int r = 0; r < 2; ++r) {
      if (replicas[r] && replicas[r]->Output().find("became leader") != std::string::npos) return r;
    }
    return -1;
  };
  ASSERT_TRUE(Eventually("a leader", [&] { return leader() >= 0; }));
  auto healths = [&](const std::string& state) {
    std::string yaml;
    for (int i = 0; i < 50; ++i) {
      std::string pool = "dh-h" + std::to_string(i / 8), gpu = "gpu-" + std::to_string(i % 8);
      yaml += "---\n" + Health("dh-hold-" + std::to_string(i), pool, gpu, state);
    }
    return cluster_->Apply(yaml);
  };
  auto our_rules = [&](bool& listed) {
    std::set<std::string> names;
    auto got = client_->Get("/apis/resource.k8s.io/v1/devicetaintrules");
    listed = got.ok();
    if (!listed) return names;
    for (const auto& rule : got->value("items", json::array())) {
      std::string name = rule.value("/metadata/name"_json_pointer, std::string());
      if (name.rfind("devicehealth-dh-hold-", 0) == 0) names.insert(name);
    }
    return names;
  };
  ASSERT_TRUE(healths("Degraded").ok());
  ASSERT_TRUE(Eventually("50 rules", [&] {
    bool listed = false;
    return our_rules(listed).size() == 50;
  }));
  // Half-way through a second: the writes then fall in the second the
  // release began, where a stateSince rounded down lies before them.
  auto fraction = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count() %
                  1000;
  std::this_thread::sleep_for(std::chrono::milliseconds((1450 - fraction) % 1000));
  using Clock = std::chrono::system_clock;
  std::vector<Clock::time_point> sent(50, Clock::time_point::max());  // each release's send time
  std::mutex mu;
  std::atomic<bool> stop{false};
  std::atomic<int> polls{0};
  std::string early;  // the first poll that missed a rule before its time
  std::thread poller([&] {
    while (!stop) {
      bool listed = false;
      std::set<std::string> present = our_rules(listed);
      auto answered = Clock::now();
      if (listed) ++polls;
      std::lock_guard lock(mu);
      for (int i = 0; listed && i < 50 && early.empty(); ++i) {
        if (present.contains("devicehealth-dh-hold-" + std::to_string(i))) continue;
        if (sent[i] == Clock::time_point::max() || answered >= sent[i] + kHoldOff) continue;
        early = "the rule of dh-hold-" + std::to_string(i) + " gone " +
                std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   sent[i] + kHoldOff - answered)
                                   .count()) +
                " ms before its hold-off ended";
      }
      std::this_thread::sleep_for(100ms);
    }
  });
  for (int i = 0; i < 50; ++i) {
    std::string name = "dh-hold-" + std::to_string(i);
    {
      std::lock_guard lock(mu);
      sent[i] = Clock::now();
    }
    auto released = client_->Patch("/apis/dra-controller.dev/v1alpha1/devicehealths/" + name,
                                   kube::PatchType::kMerge, R"({"spec":{"state":"Healthy"}})");
    if (!released.ok()) {  // no ASSERT while the poller runs
      ADD_FAILURE() << released.status().ToString();
      break;
    }
  }
  std::this_thread::sleep_for(3s);  // into the hold-off, then the failover
  int first = leader();
  EXPECT_GE(first, 0);
  if (first >= 0) {
    replicas[first]->process().Signal(SIGKILL);
    replicas[first].reset();
  }
  bool drained = static_cast<bool>(Eventually(
      "every rule gone after the hold-off",
      [&] {
        bool listed = false;
        return our_rules(listed).empty() && listed;
      },
      nullptr, 60s));
  stop = true;
  poller.join();
  EXPECT_TRUE(drained);
  EXPECT_GE(polls.load(), 20);
  EXPECT_EQ(early, "") << (first >= 0 && replicas[1 - first] ? replicas[1 - first]->Output() : "");
  for (int i = 0; i < 50; ++i) {
    int64_t sent_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(sent[i].time_since_epoch()).count();
    std::string since = HealthObject("dh-hold-" + std::to_string(i))
                            .value("/status/stateSince"_json_pointer, std::string());
    auto since_ms = kube::Rfc3339::ToMillis(since);
    ASSERT_TRUE(since_ms.has_value()) << since;
    EXPECT_GE(*since_ms, sent_ms) << "dh-hold-" << i << ": stateSince " << since;
  }
  for (auto& replica : replicas) {
    if (replica) replica->Stop();
  }
  (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kTestLabel, "--wait=true"});
  (void)cluster_->Kubectl({"delete", "lease", lease, "-n", "default", "--ignore-not-found"});
  RemoveFakeFleet(*cluster_, fleet_50);
}

TEST_F(DeviceHealthTest, InvalidManifestsAreRefusedWithTheCrdsMessages) {
  struct Case {
    std::string manifest;
    std::string message;
  };
  std::vector<Case> cases{
      {Health("dh-bad-state", "dh-a", "gpu-0", "Broken"), "Unsupported value: \"Broken\""},
      {Health("dh-bad-effect", "dh-a", "gpu-0", "Degraded", "  effect: NoExecute\n"),
       "spec.effect may only weaken the state's effect"},
      {Health("dh-bad-device", "dh-a", "GPU_0", "Degraded"), "spec.device"},
      {Health(std::string(64, 'x'), "dh-a", "gpu-0", "Degraded"), "at most 63 characters"},
  };
  for (const auto& c : cases) {
    auto applied = cluster_->Apply(c.manifest);
    ASSERT_FALSE(applied.ok()) << c.manifest;
    EXPECT_NE(applied.message().find(c.message), std::string::npos) << applied.message();
  }
  ASSERT_TRUE(cluster_->Apply(Health("dh-immutable", "dh-a", "gpu-0", "Unknown")).ok());
  auto moved = cluster_->Apply(Health("dh-immutable", "dh-a", "gpu-1", "Unknown"));
  ASSERT_FALSE(moved.ok());
  EXPECT_NE(moved.message().find("immutable"), std::string::npos) << moved.message();
}

// A DeviceHealth naming its GPU by UUID, as monitoring does: it resolves to
// the device, `kubectl get` shows which, and when the driver republishes the
// GPU under another slice and pool (a restart that renames them) the rule
// follows it.
TEST_F(DeviceHealthTest, AGpuNamedByUuidIsTaintedAndFollowedAcrossARenamedSlice) {
  json slice = Get({"get", "resourceslice", "dh-a-gpu.example.com"});
  std::string uuid;
  for (const auto& d : slice.value("/spec/devices"_json_pointer, json::array())) {
    if (d.value("name", "") == "gpu-1") uuid = d.value("/attributes/uuid/string"_json_pointer, "");
  }
  ASSERT_FALSE(uuid.empty()) << slice.dump();
  std::string manifest =
      "apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\nmetadata:\n"
      "  name: dh-by-uuid\n  labels:\n    dra-controller.dev/integration-test: device-health\n"
      "spec:\n  uuid: " +
      uuid + "\n  state: Degraded\n  reason: XidError\n";
  ASSERT_TRUE(cluster_->Apply(manifest).ok());
  ASSERT_TRUE(Eventually("the rule for the GPU with that UUID", [&] {
    return Rule("dh-by-uuid")["spec"]["deviceSelector"] ==
           json{{"driver", "gpu.example.com"}, {"pool", "dh-a"}, {"device", "gpu-1"}};
  }));
  auto table = cluster_->Kubectl({"get", "devicehealth", "dh-by-uuid"});
  ASSERT_TRUE(table.ok());
  EXPECT_NE(table->out.find("gpu.example.com/dh-a/gpu-1"), std::string::npos) << table->out;
  for (const auto& line : {table->out.substr(0, table->out.find('\n'))}) {
    EXPECT_LE(line.size(), 80u) << line;
  }

  json renamed = slice;
  renamed["metadata"] = {{"name", "dh-a-renamed-gpu.example.com"}};
  renamed["spec"]["pool"]["name"] = "dh-a-renamed";
  ASSERT_TRUE(cluster_->Kubectl({"delete", "resourceslice", "dh-a-gpu.example.com"}).ok());
  ASSERT_TRUE(cluster_->Apply(renamed.dump()).ok());
  EXPECT_TRUE(Eventually("the rule to follow the GPU to its new pool", [&] {
    return Rule("dh-by-uuid")["spec"]["deviceSelector"] ==
           json{{"driver", "gpu.example.com"}, {"pool", "dh-a-renamed"}, {"device", "gpu-1"}};
  }));
  // The status is written after the rule, in the same reconcile.
  auto resolved = [&] {
    return HealthObject("dh-by-uuid").value("/status/resolved"_json_pointer, std::string());
  };
  EXPECT_TRUE(Eventually(
      "the status to name the new pool",
      [&] { return resolved() == "gpu.example.com/dh-a-renamed/gpu-1"; }, resolved, 10s));
  (void)cluster_->Kubectl({"delete", "resourceslice", "dh-a-renamed-gpu.example.com"});
}

// A second device with the same UUID in another pool makes the target
// ambiguous, and its removal resolves it again: each slice change reaches a
// DeviceHealth by UUID once the inventory has it, without anything else
// touching the DeviceHealth.
TEST_F(DeviceHealthTest, ASecondDeviceWithTheSameUuidMakesTheTargetAmbiguousAtOnce) {
  json slice = Get({"get", "resourceslice", "dh-a-gpu.example.com"});
  json gpu;
  for (const auto& d : slice.value("/spec/devices"_json_pointer, json::array())) {
    if (d.value("name", "") == "gpu-1") gpu = d;
  }
  std::string uuid = gpu.value("/attributes/uuid/string"_json_pointer, std::string());
  ASSERT_FALSE(uuid.empty()) << slice.dump();
  ASSERT_TRUE(cluster_
                  ->Apply("apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\nmetadata:\n"
                          "  name: dh-dup-uuid\n  labels:\n"
                          "    dra-controller.dev/integration-test: device-health\n"
                          "spec:\n  uuid: " +
                          uuid + "\n  state: Degraded\n  reason: XidError\n")
                  .ok());
  auto resolved = [&] {
    return HealthObject("dh-dup-uuid").value("/status/resolved"_json_pointer, std::string());
  };
  ASSERT_TRUE(Eventually(
      "the UUID to resolve to dh-a/gpu-1",
      [&] { return resolved() == "gpu.example.com/dh-a/gpu-1"; }, resolved));

  json twin = slice;
  twin["metadata"] = {{"name", "dh-twin-gpu.example.com"}};
  twin["spec"]["pool"]["name"] = "dh-twin";
  twin["spec"]["devices"] = json::array({gpu});
  ASSERT_TRUE(cluster_->Apply(twin.dump()).ok());
  EXPECT_TRUE(Eventually(
      "the target to turn ambiguous", [&] { return resolved() == "ambiguous: 2 devices"; },
      resolved, 20s));
  ASSERT_TRUE(cluster_->Kubectl({"delete", "resourceslice", "dh-twin-gpu.example.com"}).ok());
  EXPECT_TRUE(Eventually(
      "the target to resolve again", [&] { return resolved() == "gpu.example.com/dh-a/gpu-1"; },
      resolved, 20s));
}

TEST_F(DeviceHealthTest, ATargetNamedTwoWaysOrNotAtAllIsRefused) {
  std::string head =
      "apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\nmetadata:\n"
      "  name: dh-two-ways\nspec:\n  state: Degraded\n";
  auto both = cluster_->Apply(head + "  driver: gpu.example.com\n  pool: dh-a\n  uuid: GPU-1\n");
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.message().find("name the target one way"), std::string::npos) << both.message();
  auto none = cluster_->Apply(head);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("name the target one way"), std::string::npos) << none.message();
  auto half = cluster_->Apply(head + "  node: dh-a\n");
  ASSERT_FALSE(half.ok());
  EXPECT_NE(half.message().find("node and index go together"), std::string::npos) << half.message();
}

TEST_F(DeviceHealthTest, ControllerRestartRewritesNothing) {
  ASSERT_TRUE(cluster_->Apply(Health("dh-restart", "dh-a", "gpu-1", "Degraded")).ok());
  ASSERT_TRUE(Eventually("the rule and its status", [&] {
    return Effect("dh-restart") == "NoSchedule" &&
           Condition(HealthObject("dh-restart"), "Tainted", "status") == "True";
  }));
  json before = Rule("dh-restart");
  json status_before = HealthObject("dh-restart")["status"];
  StopController();
  ASSERT_NO_FATAL_FAILURE(StartController());
  // Once the restarted controller has acted on a new object, it has also
  // been through the old one (its queue starts with every cached object).
  ASSERT_TRUE(cluster_->Apply(Health("dh-after-restart", "dh-a", "gpu-2", "Degraded")).ok());
  ASSERT_TRUE(Eventually("the restarted controller to act", [&] {
    return Condition(HealthObject("dh-after-restart"), "Tainted", "status") == "True";
  }));
  json after = Rule("dh-restart");
  EXPECT_EQ(after["metadata"]["uid"], before["metadata"]["uid"]);
  EXPECT_EQ(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"]);
  EXPECT_EQ(HealthObject("dh-restart")["status"], status_before);
}

// A GPU its driver taints (an XID published in the ResourceSlice) next to one
// a DeviceHealth taints: `devices -o json`, the tainted gauge and `check`
// each say which taint is the driver's and which is dra-controller's rule.
TEST_F(DeviceHealthTest, DriverTaintIsToldFromOurRule) {
  auto patched = cluster_->Kubectl(
      {"patch", "resourceslice", "dh-a-gpu.example.com", "--type=json", "-p",
       R"([{"op":"add","path":"/spec/devices/0/taints","value":)"
       R"([{"key":"gpu.example.com/xid","value":"48","effect":"NoSchedule"}]}])"});
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  ASSERT_TRUE(cluster_->Apply(Health("dh-drv", "dh-a", "gpu-1", "Degraded")).ok());
  ASSERT_TRUE(Eventually("the rule of dh-drv", [&] { return Effect("dh-drv") == "NoSchedule"; }));

  const std::string binary = std::string(DRA_BINARY_DIR) + "/dra-controller";
  auto devices = Subprocess::Run({binary, "devices", "--node", "dh-a", "--state", "tainted", "-o",
                                  "json", "--kubeconfig", cluster_->kubeconfig()});
  ASSERT_TRUE(devices.ok()) << devices.status().ToString();
  ASSERT_EQ(devices->exit_code, 0) << devices->err;
  json rows = json::parse(devices->out);
  std::map<std::string, json> taints;  // device -> its taints
  for (const auto& row : rows) taints[row["device"].get<std::string>()] = row["taints"];
  ASSERT_EQ(taints.size(), 2u) << rows.dump(2);
  ASSERT_EQ(taints["gpu-0"].size(), 1u) << rows.dump(2);
  EXPECT_EQ(taints["gpu-0"][0]["source"], "driver");
  EXPECT_EQ(taints["gpu-0"][0]["key"], "gpu.example.com/xid");
  EXPECT_FALSE(taints["gpu-0"][0].contains("rule"));
  ASSERT_EQ(taints["gpu-1"].size(), 1u) << rows.dump(2);
  EXPECT_EQ(taints["gpu-1"][0]["source"], "rule");
  EXPECT_EQ(taints["gpu-1"][0]["rule"], "devicehealth-dh-drv");

  auto gauge = [&](const std::string& source) {
    std::string metrics = Metrics();
    std::regex series(R"(dra_controller_devices_tainted\{[^}]*pool="dh-a"[^}]*device_class=")" +
                      std::string(kClass) + R"(",effect="NoSchedule",source=")" + source +
                      R"("\} (\S+))");
    std::smatch match;
    return std::regex_search(metrics, match, series) ? match[1].str() : std::string();
  };
  EXPECT_TRUE(Eventually(
      "one device tainted by the driver and one by a rule in the gauge",
      [&] { return gauge("driver") == "1" && gauge("rule") == "1"; },
      [&] { return "driver=" + gauge("driver") + " rule=" + gauge("rule"); }));

  auto check =
      Subprocess::Run({binary, "check", "-o", "json", "--kubeconfig", cluster_->kubeconfig()});
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  std::map<std::string, json> rows_by_name;
  json report = json::parse(check->out);  // a range-for over a temporary's member would dangle
  for (const auto& row : report["results"]) {
    rows_by_name[row["name"].get<std::string>()] = row;
  }
  EXPECT_EQ(rows_by_name["driver-taints"]["result"], "warn") << check->out;
  EXPECT_NE(rows_by_name["driver-taints"]["detail"].get<std::string>().find(
                "dh-a/gpu-0 gpu.example.com/xid=48:NoSchedule"),
            std::string::npos)
      << check->out;
  EXPECT_EQ(rows_by_name["device-taints"]["result"], "fail") << check->out;
  std::string rule_detail = rows_by_name["device-taints"]["detail"].get<std::string>();
  EXPECT_NE(rule_detail.find("gpu.example.com/dh-a/gpu-1 dra-controller.dev/device-health:"
                             "NoSchedule (rule devicehealth-dh-drv (DeviceHealth dh-drv))"),
            std::string::npos)
      << check->out;
  EXPECT_EQ(rule_detail.find("dh-a/gpu-0"), std::string::npos) << check->out;
}

}  // namespace
}  // namespace dra::testing
