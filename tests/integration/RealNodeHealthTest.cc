// The real node (NODE=1, hack/node/): Pods asking for a GPU of the node's DRA
// driver, one through a ResourceClaim and one through an extended resource,
// are bound by the real scheduler, their claims are prepared by the driver
// through the real kubelet and their containers run in containerd. When the
// driver reports the claim Pod's GPU Unhealthy, the kubelet writes that into
// its status.containerStatuses[].allocatedResourcesStatus. The kubelet
// v1.37.2 writes nothing there for the extended-resource Pod: it reports only
// containers that name a claim in resources.claims. Deleting the Pods
// unprepares both claims and leaves no container running; `explain` names the
// extended-resource Pod's device. Skipped when no node is up (fails under
// DRA_REQUIRE_NODE=1, as in `make test`'s node phase).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <vector>

#include "tests/support/ControllerUnderTest.h"
#include "tests/support/RealNodeTest.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using RealNodeHealthTest = RealNodeTest;

TEST_F(RealNodeHealthTest, UnhealthyGpuReachesThePodStatusAndDeletionCleansUp) {
  auto created = Clock::now();
  ASSERT_TRUE(cluster_->Create(ClaimManifest("gpu")).ok());
  ASSERT_TRUE(cluster_->Create(ClaimPodManifest("claim", "gpu")).ok());
  ASSERT_TRUE(cluster_->Create(ExtendedPodManifest("extended")).ok());
  for (const char* pod : {"claim", "extended"}) {
    auto running = WaitFor(
        std::string("Pod ") + pod + " Running on " + node_->name(), 120s,
        [&] { return PodRunning(pod); },
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
  // `explain` names the device the scheduler gave the extended-resource Pod.
  auto explained = Subprocess::Run(
      {ControllerUnderTest::Binary(), "explain", "pod", "extended", "-n", ns_, "-o", "json"});
  ASSERT_TRUE(explained.ok()) << explained.status().ToString();
  EXPECT_EQ(explained->exit_code, 0) << explained->out;
  json explanation = json::parse(explained->out, nullptr, false);
  EXPECT_EQ(explanation.value("claimName", ""), implicit_claim) << explained->out;
  EXPECT_EQ(explanation.value("devices", json::array()),
            json::array({node_->driver() + "/" + node_->name() + "/" + other_device +
                         " (container-0-request-0)"}))
      << explained->out;
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
