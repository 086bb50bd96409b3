#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "src/base/Result.h"
#include "src/base/Status.h"

namespace dra::testing {

// The real node `cluster.sh up` starts with NODE=1 (hack/node/node.sh): a
// kubelet with containerd and the DRA driver hack/node/dra-driver, reached
// through the env file it appends to (DRA_NODE_NAME, DRA_NODE_DRIVER,
// DRA_NODE_GPU_MODEL, DRA_NODE_DRIVER_CONTROL_FILE). The driver's control
// endpoint sets a device's health, or silences its health reports, as a
// failing GPU or a wedged driver would.
class RealNode {
 public:
  // Fails (kUnavailable, saying how to start one) when no node is up.
  static kube::Result<RealNode> FromEnvironment();

  const std::string& name() const { return name_; }
  const std::string& driver() const { return driver_; }
  const std::string& gpu_model() const { return gpu_model_; }

  // `health` is Healthy, Unhealthy or Unknown; the driver reports it to the kubelet at once.
  kube::Status SetHealth(const std::string& device, const std::string& health,
                         const std::string& message = "") const;
  // Silent: the driver's health stream stays open and sends nothing.
  kube::Status SetSilent(bool silent) const;
  // {"registered", "preparedClaims": ["<claim>/<uid>"...], "silent", "healthStreams"}
  kube::Result<nlohmann::json> DriverStatus() const;
  // [{"pool", "device", "uuid", "index", "health"}...]
  kube::Result<nlohmann::json> Devices() const;

 private:
  RealNode(std::string name, std::string driver, std::string gpu_model, std::string control)
      : name_(std::move(name)),
        driver_(std::move(driver)),
        gpu_model_(std::move(gpu_model)),
        control_(std::move(control)) {}
  kube::Result<nlohmann::json> Call(const std::string& method, const std::string& path) const;

  std::string name_;
  std::string driver_;
  std::string gpu_model_;
  std::string control_;  // host:port of the driver's control endpoint
};

}  // namespace dra::testing
