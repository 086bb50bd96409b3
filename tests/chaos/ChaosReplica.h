#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "tests/support/BackgroundProcess.h"

namespace dra::testing {

// One `dra-controller run` process of the chaos run: started with the
// given flags on loopback port 0 for metrics and probes, it finds its ports
// in its log and answers /metrics and /readyz scrapes with short timeouts (a
// killed or stopped process must not stall the caller).
class ChaosReplica {
 public:
  // `flags` follow `run --kubeconfig KUBECONFIG`.
  static kube::Result<std::unique_ptr<ChaosReplica>> Start(const std::string& kubeconfig,
                                                           const std::vector<std::string>& flags,
                                                           std::string name);

  const std::string& name() const { return name_; }
  BackgroundProcess& process() { return *process_; }

  // The /metrics page.
  kube::Result<std::string> Scrape(std::chrono::milliseconds timeout) const;
  // 1 leading, 0 not, -1 unreachable within `timeout`.
  int MasterStatus(std::chrono::milliseconds timeout) const;
  bool Ready(std::chrono::milliseconds timeout) const;

 private:
  ChaosReplica(std::unique_ptr<BackgroundProcess> process, std::string name)
      : process_(std::move(process)), name_(std::move(name)) {}
  kube::Result<std::string> Get(int port, const std::string& path,
                                std::chrono::milliseconds timeout) const;

  std::unique_ptr<BackgroundProcess> process_;
  std::string name_;
  int metrics_port_ = 0;
  int probe_port_ = 0;
};

}  // namespace dra::testing
