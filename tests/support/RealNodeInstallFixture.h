#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/KustomizeOverlay.h"
#include "tests/support/RealNodeTest.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {

// Base fixture of the tests that install dra-controller as Pods on the real
// node, as the README says: needs the project's image imported into the
// node's containerd (skips without it; fails under DRA_REQUIRE_NODE_IMAGE=1,
// as in `make test` when it built the image) and applies crds/. Tear-down
// removes what Install() or a Helm install put there.
class RealNodeInstallFixture : public RealNodeTest {
 protected:
  static constexpr const char* kImage = "docker.io/library/dra-controller:dev";

  void SetUp() override;
  void TearDown() override;

  // The README's steps in `namespace_`: the namespace, the operator's own
  // TLS Secret, an overlay of manifests/ with the tls component (and a
  // nodeSelector for the real node, OnTheNode()); then `kubectl rollout status`.
  void Install();
  void RolloutStatus();
  // The overlay's patch that keeps the Deployment's Pods on the real node.
  std::string OnTheNode() const;
  // The operator's own TLS Secret for the Service's name in `namespace_`;
  // its CA in `ca_file_`.
  void CreateTlsSecret(const std::string& name);
  kube::Result<ProcessOutput> Helm(std::vector<std::string> args);

  // The Deployment's Ready Pods (not being deleted).
  std::vector<std::string> ReadyPods();
  std::string PodIp(const std::string& pod);
  // The Pod name part of the Lease's holder ("<pod>_<random>").
  std::string Leader();
  std::string Log(const std::string& pod);
  std::string PodsAndEvents();

  std::string namespace_ = "dra-system";
  std::string ca_file_;
  bool helm_installed_ = false;
  TempDir pki_dir_;
  std::optional<KustomizeOverlay> overlay_;
};

}  // namespace dra::testing
