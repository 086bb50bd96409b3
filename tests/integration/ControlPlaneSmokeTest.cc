// Proves the test environment is the real thing: the upstream v1.37.2
// scheduler binds an extended-resource Pod through DRA and creates its implicit
// ResourceClaim, and honours CEL capacity selectors on explicit claims.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "tests/support/ClusterTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kDeviceClass = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
  "metadata": {"name": "gpu.example.com"},
  "spec": {
    "extendedResourceName": "example.com/gpu",
    "selectors": [{"cel": {"expression":
      "device.driver == \"gpu.example.com\" && device.attributes[\"gpu.example.com\"].type == \"gpu\""}}]
  }})";

json PodManifest(const std::string& name, const std::string& ns) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"automountServiceAccountToken", false},
            {"containers",
             json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}}}};
}

class ControlPlaneSmokeTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto fleet = cluster_->RunRepoScript("hack/fake-gpu-fleet.sh", {"apply"});
    ASSERT_TRUE(fleet.ok()) << fleet.status().ToString();
    ASSERT_TRUE(cluster_->Apply(kDeviceClass).ok());
    auto ns = cluster_->CreateTestNamespace("smoke");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    if (cluster_ && !ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  json Get(const std::vector<std::string>& args) {
    auto r = cluster_->GetJson(args);
    return r.ok() ? *r : json();
  }

  // Waits until the Pod is bound and returns it.
  json WaitForBoundPod(const std::string& name) {
    json pod;
    auto bound = WaitFor(
        "pod " + name + " to be bound", 60s,
        [&] {
          pod = Get({"get", "pod", name, "-n", ns_});
          return !pod.value("/spec/nodeName"_json_pointer, std::string()).empty();
        },
        [&] { return pod.value("status", json()).dump(); });
    EXPECT_TRUE(bound.ok()) << bound.ToString();
    return pod;
  }

  std::string ns_;
};

TEST_F(ControlPlaneSmokeTest, ExtendedResourcePodGetsImplicitClaimFromScheduler) {
  json pod = PodManifest("gpu-pod", ns_);
  pod["spec"]["containers"][0]["resources"] = {{"limits", {{"example.com/gpu", "1"}}}};
  ASSERT_TRUE(cluster_->Create(pod.dump()).ok());

  json status;
  auto recorded = WaitFor(
      "extendedResourceClaimStatus on gpu-pod", 60s,
      [&] {
        status = Get({"get", "pod", "gpu-pod", "-n", ns_});
        return status.contains(
                   "/status/extendedResourceClaimStatus/resourceClaimName"_json_pointer) &&
               !status.value("/spec/nodeName"_json_pointer, std::string()).empty();
      },
      [&] { return status.value("status", json()).dump(); });
  ASSERT_TRUE(recorded.ok()) << recorded.ToString();

  const json& ercs = status["status"]["extendedResourceClaimStatus"];
  std::string claim_name = ercs["resourceClaimName"];
  ASSERT_EQ(ercs["requestMappings"].size(), 1u) << ercs.dump();
  EXPECT_EQ(ercs["requestMappings"][0]["containerName"], "main");
  EXPECT_EQ(ercs["requestMappings"][0]["resourceName"], "example.com/gpu");
  std::string request = ercs["requestMappings"][0]["requestName"];

  json claim = Get({"get", "resourceclaim", claim_name, "-n", ns_});
  EXPECT_EQ(
      claim.value(
          "/metadata/annotations/resource.kubernetes.io~1extended-resource-claim"_json_pointer,
          std::string()),
      "true");
  const json& owner = claim["metadata"]["ownerReferences"][0];
  EXPECT_EQ(owner["kind"], "Pod");
  EXPECT_EQ(owner["uid"], status["metadata"]["uid"]);
  EXPECT_EQ(owner.value("controller", false), true);

  const json& results = claim["status"]["allocation"]["devices"]["results"];
  ASSERT_EQ(results.size(), 1u) << claim.dump();
  EXPECT_EQ(results[0]["driver"], "gpu.example.com");
  EXPECT_EQ(results[0]["request"], request);
  EXPECT_EQ(results[0]["pool"], status["spec"]["nodeName"]) << "device must sit on the Pod's node";
  EXPECT_EQ(claim["status"]["reservedFor"][0]["uid"], status["metadata"]["uid"]);
}

TEST_F(ControlPlaneSmokeTest, CelCapacitySelectorClaimLandsOnBigGpuNode) {
  json claim = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "ResourceClaim"},
      {"metadata", {{"name", "big-gpu"}, {"namespace", ns_}}},
      {"spec",
       {{"devices",
         {{"requests",
           json::array({{{"name", "gpu"},
                         {"exactly",
                          {{"deviceClassName", "gpu.example.com"},
                           {"selectors",
                            json::array({{{"cel",
                                           {{"expression",
                                             "device.capacity[\"gpu.example.com\"].memory."
                                             "compareTo(quantity(\"64Gi\")) >= 0"}}}}})}}}}})}}}}}};
  ASSERT_TRUE(cluster_->Create(claim.dump()).ok());
  json pod = PodManifest("big-gpu-pod", ns_);
  pod["spec"]["resourceClaims"] =
      json::array({{{"name", "gpu"}, {"resourceClaimName", "big-gpu"}}});
  pod["spec"]["containers"][0]["resources"] = {{"claims", json::array({{{"name", "gpu"}}})}};
  ASSERT_TRUE(cluster_->Create(pod.dump()).ok());

  json bound = WaitForBoundPod("big-gpu-pod");
  EXPECT_EQ(bound.value("/spec/nodeName"_json_pointer, std::string()), "node-b");
  json allocated = Get({"get", "resourceclaim", "big-gpu", "-n", ns_});
  const json& results = allocated["status"]["allocation"]["devices"]["results"];
  ASSERT_EQ(results.size(), 1u) << allocated.dump();
  EXPECT_EQ(results[0]["pool"], "node-b");
}

}  // namespace
}  // namespace dra::testing
