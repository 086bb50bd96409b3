// The real node (NODE=1, hack/node/): Pods asking for a GPU of the node's DRA
// driver, one through a ResourceClaim and one through an extended resource,
// are bound by the real scheduler, their claims are prepared by the driver
// through the real kubelet and their containers run in containerd. When the
// driver reports the claim Pod's GPU Unhealthy, the kubelet writes that into
// its status.containerStatuses[].allocatedResourcesStatus. The kubelet
// v1.37.2 writes nothing there for the extended-resource Pod: it reports only
// containers that name a claim in resources.claims. Deleting the Pods
// unprepares both claims and leaves no container running. Skipped when no
// node is up (fails under DRA_REQUIRE_NODE=1, as in `make test`'s node phase).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RealNode.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr const char* kClass = "real-node-gpu.example.com";
constexpr const char* kResource = "example.com/real-node-gpu";

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class RealNodeHealthTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto node = RealNode::FromEnvironment();
    if (!node.ok()) {
      if (std::getenv("DRA_REQUIRE_NODE") != nullptr) FAIL() << node.status().ToString();
      GTEST_SKIP() << node.status().ToString();
    }
    node_.emplace(*node);
    const std::string& driver = node_->driver();
    std::string cel = "device.driver == \"" + driver + "\" && device.attributes[\"" + driver +
                      "\"].model == \"" + node_->gpu_model() + "\"";
    auto applied = cluster_->Apply(DeviceClassManifest(kClass, kResource, cel));
    ASSERT_TRUE(applied.ok()) << applied.ToString();
    auto ns = cluster_->CreateTestNamespace("real-node");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    if (!cluster_) return;
    if (!ns_.empty()) {
      (void)cluster_->Kubectl({"delete", "pods", "--all", "-n", ns_, "--wait=false"});
      (void)cluster_->Kubectl({"delete", "namespace", ns_, "--wait=false"});
    }
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    // The kubelet keeps the last report per device: leave every GPU Healthy.
    if (node_) {
      auto devices = node_->Devices();
      if (devices.ok()) {
        for (const auto& d : *devices) (void)node_->SetHealth(d.value("device", ""), "Healthy");
      }
    }
  }

  json PodSpec(json container) const {
    container["name"] = "main";
    container["image"] = "docker.io/local/busybox:1";
    container["imagePullPolicy"] = "Never";
    return {{"automountServiceAccountToken", false},
            {"terminationGracePeriodSeconds", 5},
            {"nodeSelector", {{"kubernetes.io/hostname", node_->name()}}},
            {"containers", json::array({container})}};
  }

  std::string ClaimManifest() const {
    json request = {{"name", "gpu"}, {"exactly", {{"deviceClassName", kClass}}}};
    return json{{"apiVersion", "resource.k8s.io/v1"},
                {"kind", "ResourceClaim"},
                {"metadata", {{"name", "gpu"}, {"namespace", ns_}}},
                {"spec", {{"devices", {{"requests", json::array({request})}}}}}}
        .dump();
  }

  // "claim": the ResourceClaim above; "extended": 1 of the class's extended resource.
  std::string PodManifest(const std::string& name) const {
    json spec;
    if (name == "claim") {
      spec = PodSpec(
          {{"resources", {{"claims", json::array({{{"name", "gpu"}, {"request", "gpu"}}})}}}});
      spec["resourceClaims"] = json::array({{{"name", "gpu"}, {"resourceClaimName", "gpu"}}});
    } else {
      spec = PodSpec({{"resources", {{"limits", {{kResource, 1}}}}}});
    }
    return json{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", ns_}}},
                {"spec", spec}}
        .dump();
  }

  json Get(const std::string& kind, const std::string& name) {
    auto out = cluster_->GetJson({"get", kind, name, "-n", ns_});
    return out.ok() ? *out : json();
  }

  // The main container's allocatedResourcesStatus as the kubelet wrote it.
  json ResourcesStatus(const std::string& pod) {
    for (const auto& c :
         Get("pod", pod).value("/status/containerStatuses"_json_pointer, json::array())) {
      if (c.value("name", "") == "main") return c.value("allocatedResourcesStatus", json::array());
    }
    return json::array();
  }

  bool Reports(const std::string& pod, const std::string& health) {
    for (const auto& status : ResourcesStatus(pod)) {
      for (const auto& r : status.value("resources", json::array())) {
        if (r.value("health", "") == health) return true;
      }
    }
    return false;
  }

  // The device the claim was allocated, after checking it is the node's.
  std::string AllocatedDevice(const std::string& claim_name) {
    json claim = Get("resourceclaim", claim_name);
    json results = claim.value("/status/allocation/devices/results"_json_pointer, json::array());
    EXPECT_EQ(results.size(), 1u) << claim.dump(2);
    if (results.size() != 1) return "";
    EXPECT_EQ(results[0].value("driver", ""), node_->driver());
    EXPECT_EQ(results[0].value("pool", ""), node_->name());
    return results[0].value("device", "");
  }

  std::vector<std::string> PreparedClaims() {
    std::vector<std::string> out;
    auto status = node_->DriverStatus();
    if (!status.ok()) return {"(driver: " + status.status().ToString() + ")"};
    for (const auto& c : status->value("preparedClaims", json::array())) {
      std::string id = c.get<std::string>();
      out.push_back(id.substr(0, id.find('/')));
    }
    return out;
  }

  // Containers containerd still runs for the node (tasks in state RUNNING).
  std::string RunningTasks() {
    const char* socket = std::getenv("DRA_NODE_CONTAINERD_SOCKET");
    if (socket == nullptr) return "";
    auto out = Subprocess::Run({"ctr", "--address", socket, "-n", "k8s.io", "tasks", "ls"});
    if (!out.ok()) return "ctr failed: " + out.status().ToString();
    std::string running;
    std::istringstream lines(out->out);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("RUNNING") != std::string::npos) running += line + "\n";
    }
    return running;
  }

  std::optional<RealNode> node_;
  std::string ns_;
};

TEST_F(RealNodeHealthTest, UnhealthyGpuReachesThePodStatusAndDeletionCleansUp) {
  auto created = Clock::now();
  ASSERT_TRUE(cluster_->Create(ClaimManifest()).ok());
  ASSERT_TRUE(cluster_->Create(PodManifest("claim")).ok());
  ASSERT_TRUE(cluster_->Create(PodManifest("extended")).ok());
  for (const char* pod : {"claim", "extended"}) {
    auto running = WaitFor(
        std::string("Pod ") + pod + " Running on " + node_->name(), 120s,
        [&] {
          return Get("pod", pod).value("/status/phase"_json_pointer, std::string()) == "Running";
        },
        [&] { return Get("pod", pod).value("status", json()).dump(); });
    ASSERT_TRUE(running.ok()) << running.ToString();
    std::cout << "[ real node ] Pod " << pod << " Running " << SecondsSince(created)
              << " s after create\n";
  }

  // Each claim holds one of the node's GPUs, and the driver prepared both.
  std::string implicit_claim =
      Get("pod", "extended")
          .value("/status/extendedResourceClaimStatus/resourceClaimName"_json_pointer,
                 std::string());
  ASSERT_FALSE(implicit_claim.empty()) << Get("pod", "extended").dump(2);
  std::string device = AllocatedDevice("gpu");
  std::string other_device = AllocatedDevice(implicit_claim);
  ASSERT_FALSE(device.empty());
  EXPECT_NE(device, other_device);
  auto prepared = PreparedClaims();
  std::sort(prepared.begin(), prepared.end());
  std::vector<std::string> expected{"gpu", implicit_claim};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(prepared, expected);

  // Until the driver says otherwise the kubelet reports the GPU as Unknown
  // (or Healthy, as an earlier run's tear-down left it).
  auto reported = WaitFor(
      "allocatedResourcesStatus of Pod claim", 60s,
      [&] { return !ResourcesStatus("claim").empty(); },
      [&] { return Get("pod", "claim").value("status", json()).dump(); });
  ASSERT_TRUE(reported.ok()) << reported.ToString();
  EXPECT_FALSE(Reports("claim", "Unhealthy")) << ResourcesStatus("claim").dump(2);

  auto marked = Clock::now();
  ASSERT_TRUE(node_->SetHealth(device, "Unhealthy", "Xid 79 (test)").ok());
  ASSERT_TRUE(node_->SetHealth(other_device, "Unhealthy", "Xid 79 (test)").ok());
  auto unhealthy = WaitFor(
      "Pod claim's GPU reported Unhealthy", 90s, [&] { return Reports("claim", "Unhealthy"); },
      [&] { return ResourcesStatus("claim").dump(); });
  ASSERT_TRUE(unhealthy.ok()) << unhealthy.ToString();
  std::cout << "[ real node ] Unhealthy in allocatedResourcesStatus " << SecondsSince(marked)
            << " s after the driver reported it:\n"
            << ResourcesStatus("claim").dump(2) << "\n";
  json statuses = ResourcesStatus("claim");
  ASSERT_EQ(statuses.size(), 1u);
  EXPECT_EQ(statuses[0].value("name", ""), "claim:gpu/gpu");
  json resources = statuses[0].value("resources", json::array());
  ASSERT_EQ(resources.size(), 1u);
  EXPECT_EQ(resources[0].value("health", ""), "Unhealthy");
  EXPECT_EQ(resources[0].value("message", ""), "Xid 79 (test)");
  // The kubelet reports only containers naming a claim in resources.claims.
  EXPECT_TRUE(ResourcesStatus("extended").empty()) << ResourcesStatus("extended").dump(2);

  auto deleted = Clock::now();
  ASSERT_TRUE(cluster_->Kubectl({"delete", "pods", "--all", "-n", ns_, "--wait=false"}).ok());
  for (const char* pod : {"claim", "extended"}) {
    auto gone = WaitFor(std::string("Pod ") + pod + " deleted through the kubelet", 90s,
                        [&] { return Get("pod", pod).is_null(); });
    ASSERT_TRUE(gone.ok()) << gone.ToString();
  }
  std::cout << "[ real node ] Pods gone " << SecondsSince(deleted) << " s after delete\n";
  auto unprepared = WaitFor(
      "the driver to unprepare both claims", 60s, [&] { return PreparedClaims().empty(); },
      [&] { return std::to_string(PreparedClaims().size()) + " prepared"; });
  EXPECT_TRUE(unprepared.ok()) << unprepared.ToString();
  auto stopped = WaitFor(
      "no container running on the node", 60s, [&] { return RunningTasks().empty(); },
      [&] { return RunningTasks(); });
  EXPECT_TRUE(stopped.ok()) << stopped.ToString();
  auto released = WaitFor("claim gpu deallocated and the scheduler's claim deleted", 60s, [&] {
    return Get("resourceclaim", "gpu").value("/status/allocation"_json_pointer, json()).is_null() &&
           Get("resourceclaim", implicit_claim).is_null();
  });
  EXPECT_TRUE(released.ok()) << released.ToString();
}

}  // namespace
}  // namespace dra::testing
