#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/ClusterTest.h"
#include "tests/support/RealNode.h"

namespace dra::testing {

// Base fixture of the tests on the real node (NODE=1, hack/node/): a
// DeviceClass selecting the node driver's GPUs, with an extended resource
// name, and a namespace of the test's own. Skips when no node is up (fails
// under DRA_REQUIRE_NODE=1, as in `make test`'s node phase). Tear-down
// deletes the test's Pods and leaves every GPU Healthy and the driver
// reporting, since the kubelet keeps the last report per device.
class RealNodeTest : public ClusterTest {
 protected:
  static constexpr const char* kClass = "real-node-gpu.example.com";
  static constexpr const char* kResource = "example.com/real-node-gpu";

  // Seconds on the steady clock since `start`, for the timings the tests print.
  static double SecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  void SetUp() override;
  void TearDown() override;

  // A Pod spec of one container "main" (the locally built busybox) pinned to the node.
  nlohmann::json PodSpec(nlohmann::json container) const;
  // A ResourceClaim of one request "gpu" of the class; `selector` (CEL) and
  // `tolerations` are added when given.
  std::string ClaimManifest(const std::string& name, const std::string& selector = "",
                            const nlohmann::json& tolerations = nullptr) const;
  // A Pod whose container uses request "gpu" of the ResourceClaim `claim`.
  std::string ClaimPodManifest(const std::string& name, const std::string& claim) const;
  // A Pod asking for 1 of the class's extended resource.
  std::string ExtendedPodManifest(const std::string& name) const;

  // The object from the test's namespace; null when it does not exist.
  nlohmann::json Get(const std::string& kind, const std::string& name);
  bool PodRunning(const std::string& name);
  // The main container's allocatedResourcesStatus as the kubelet wrote it.
  nlohmann::json ResourcesStatus(const std::string& pod);
  bool Reports(const std::string& pod, const std::string& health);
  // The device the claim was allocated, after checking it is the node's.
  std::string AllocatedDevice(const std::string& claim_name);
  // The names of the claims the driver has prepared.
  std::vector<std::string> PreparedClaims();
  // Containers containerd still runs for the node (tasks in state RUNNING).
  std::string RunningTasks();

  std::optional<RealNode> node_;
  std::string ns_;
};

}  // namespace dra::testing
