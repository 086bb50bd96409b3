#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "src/base/Result.h"
#include "src/client/RestClient.h"
#include "src/config/RestConfig.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// How the operator commands (explain, devices, mapping, check, ...) reach a
// cluster: the same configuration rules as `run` (--kubeconfig, $KUBECONFIG,
// in-cluster service account, ~/.kube/config; --context), so that they work
// as `kubectl dra ...` and without the controller running.
class ClusterConnection {
 public:
  // Declares --kubeconfig and --context on `flags`.
  static void DeclareFlags(kube::FlagSet& flags);

  // Loads the configuration the flags select and builds a client for it.
  // Errors say which file or setting was wrong.
  static kube::Result<ClusterConnection> Open(const kube::FlagSet& flags);
  // Open(), printing "error: ..." to `err` on failure.
  static std::optional<ClusterConnection> OpenOrReport(const kube::FlagSet& flags,
                                                       std::ostream& err);

  kube::RestClient& client() { return *client_; }
  std::shared_ptr<kube::RestClient> shared_client() const { return client_; }
  const kube::RestConfig& config() const { return config_; }

 private:
  ClusterConnection(kube::RestConfig config, std::shared_ptr<kube::RestClient> client)
      : config_(std::move(config)), client_(std::move(client)) {}

  kube::RestConfig config_;
  std::shared_ptr<kube::RestClient> client_;
};

}  // namespace dra::cli
