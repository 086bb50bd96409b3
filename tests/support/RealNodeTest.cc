#include "tests/support/RealNodeTest.h"

#include <cstdlib>
#include <sstream>

#include "tests/support/FleetManifests.h"
#include "tests/support/Subprocess.h"

namespace dra::testing {

using nlohmann::json;

void RealNodeTest::SetUp() {
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

void RealNodeTest::TearDown() {
  if (!cluster_) return;
  if (!ns_.empty()) {
    (void)cluster_->Kubectl({"delete", "pods", "--all", "-n", ns_, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "namespace", ns_, "--wait=false"});
  }
  (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
  if (!node_) return;
  (void)node_->SetSilent(false);
  auto devices = node_->Devices();
  if (!devices.ok()) return;
  for (const auto& d : *devices) (void)node_->SetHealth(d.value("device", ""), "Healthy");
}

json RealNodeTest::PodSpec(json container) const {
  container["name"] = "main";
  container["image"] = "docker.io/local/busybox:1";
  container["imagePullPolicy"] = "Never";
  return {{"automountServiceAccountToken", false},
          {"terminationGracePeriodSeconds", 5},
          {"nodeSelector", {{"kubernetes.io/hostname", node_->name()}}},
          {"containers", json::array({container})}};
}

std::string RealNodeTest::ClaimManifest(const std::string& name, const std::string& selector,
                                        const json& tolerations) const {
  json exactly = {{"deviceClassName", kClass}};
  if (!selector.empty())
    exactly["selectors"] = json::array({{{"cel", {{"expression", selector}}}}});
  if (!tolerations.is_null()) exactly["tolerations"] = tolerations;
  json request = {{"name", "gpu"}, {"exactly", exactly}};
  return json{{"apiVersion", "resource.k8s.io/v1"},
              {"kind", "ResourceClaim"},
              {"metadata", {{"name", name}, {"namespace", ns_}}},
              {"spec", {{"devices", {{"requests", json::array({request})}}}}}}
      .dump();
}

std::string RealNodeTest::ClaimPodManifest(const std::string& name,
                                           const std::string& claim) const {
  json spec =
      PodSpec({{"resources", {{"claims", json::array({{{"name", "gpu"}, {"request", "gpu"}}})}}}});
  spec["resourceClaims"] = json::array({{{"name", "gpu"}, {"resourceClaimName", claim}}});
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", ns_}}},
              {"spec", spec}}
      .dump();
}

std::string RealNodeTest::ExtendedPodManifest(const std::string& name) const {
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", ns_}}},
              {"spec", PodSpec({{"resources", {{"limits", {{kResource, 1}}}}}})}}
      .dump();
}

json RealNodeTest::Get(const std::string& kind, const std::string& name) {
  auto out = cluster_->GetJson({"get", kind, name, "-n", ns_});
  return out.ok() ? *out : json();
}

bool RealNodeTest::PodRunning(const std::string& name) {
  return Get("pod", name).value("/status/phase"_json_pointer, std::string()) == "Running";
}

json RealNodeTest::ResourcesStatus(const std::string& pod) {
  for (const auto& c :
       Get("pod", pod).value("/status/containerStatuses"_json_pointer, json::array())) {
    if (c.value("name", "") == "main") return c.value("allocatedResourcesStatus", json::array());
  }
  return json::array();
}

bool RealNodeTest::Reports(const std::string& pod, const std::string& health) {
  for (const auto& status : ResourcesStatus(pod)) {
    for (const auto& r : status.value("resources", json::array())) {
      if (r.value("health", "") == health) return true;
    }
  }
  return false;
}

std::string RealNodeTest::AllocatedDevice(const std::string& claim_name) {
  json claim = Get("resourceclaim", claim_name);
  json results = claim.value("/status/allocation/devices/results"_json_pointer, json::array());
  EXPECT_EQ(results.size(), 1u) << claim.dump(2);
  if (results.size() != 1) return "";
  EXPECT_EQ(results[0].value("driver", ""), node_->driver());
  EXPECT_EQ(results[0].value("pool", ""), node_->name());
  return results[0].value("device", "");
}

std::vector<std::string> RealNodeTest::PreparedClaims() {
  std::vector<std::string> out;
  auto status = node_->DriverStatus();
  if (!status.ok()) return {"(driver: " + status.status().ToString() + ")"};
  for (const auto& c : status->value("preparedClaims", json::array())) {
    std::string id = c.get<std::string>();
    out.push_back(id.substr(0, id.find('/')));
  }
  return out;
}

std::string RealNodeTest::RunningTasks() {
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

}  // namespace dra::testing
