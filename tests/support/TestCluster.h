#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/client/RestClient.h"
#include "tests/support/Subprocess.h"

namespace dra::testing {

// The control plane started by hack/control-plane/cluster.sh, reached through
// the env it writes (KUBECONFIG, DRA_KUBECTL). Used by integration tests to
// arrange and inspect cluster state with the real kubectl.
class TestCluster {
 public:
  static kube::Result<TestCluster> FromEnvironment();

  const std::string& kubeconfig() const { return kubeconfig_; }

  // Runs kubectl; a non-zero exit becomes an error carrying its stderr.
  kube::Result<ProcessOutput> Kubectl(const std::vector<std::string>& args,
                                      const std::string& stdin_data = "") const;
  // `kubectl ARGS -o json`, parsed.
  kube::Result<nlohmann::json> GetJson(const std::vector<std::string>& args) const;
  kube::Status Apply(const std::string& manifest) const;
  kube::Status Create(const std::string& manifest) const;
  // Applies the repository's DeviceHealth CRD and waits until it is served.
  kube::Status InstallDeviceHealthCrd() const;
  // The CRD is Established and kubectl can name its kind.
  kube::Status WaitForDeviceHealthKind() const;

  // Creates a namespace named PREFIX-<random> that is ready for Pods (its
  // default ServiceAccount exists).
  kube::Result<std::string> CreateTestNamespace(
      const std::string& prefix,
      std::chrono::seconds service_account_deadline = std::chrono::seconds(60)) const;
  // Force-deletes the namespace's Pods (no kubelet will ever confirm their
  // termination) and then the namespace, without waiting.
  void DeleteTestNamespace(const std::string& ns) const;

  // A REST client authenticated as the cluster admin.
  kube::Result<std::shared_ptr<kube::RestClient>> NewRestClient() const;

  // Stops a control-plane component by PID and starts it again (cluster.sh restart).
  kube::Status RestartComponent(const std::string& component) const;
  // Waits until kube-controller-manager acts on new objects again (after a
  // kube-apiserver restart its informers can take tens of seconds to resume),
  // so the next test does not pay for a restart it did not make.
  kube::Status WaitForControllersToCatchUp() const;

  // Runs a script from the repository with KUBECONFIG pointing at this cluster.
  kube::Result<ProcessOutput> RunRepoScript(
      const std::string& relative_path, const std::vector<std::string>& args,
      std::chrono::seconds timeout = std::chrono::seconds(60)) const;

 private:
  TestCluster(std::string kubeconfig, std::string kubectl, std::string cluster_dir)
      : kubeconfig_(std::move(kubeconfig)),
        kubectl_(std::move(kubectl)),
        cluster_dir_(std::move(cluster_dir)) {}

  std::string kubeconfig_;
  std::string kubectl_;
  std::string cluster_dir_;
};

}  // namespace dra::testing
