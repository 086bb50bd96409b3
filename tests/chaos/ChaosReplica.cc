#include "tests/chaos/ChaosReplica.h"

#include <regex>

#include "src/http/HttpTransport.h"
#include "tests/chaos/MetricsText.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {

kube::Result<std::unique_ptr<ChaosReplica>> ChaosReplica::Start(
    const std::string& kubeconfig, const std::vector<std::string>& flags, std::string name) {
  std::vector<std::string> argv{std::string(DRA_BINARY_DIR) + "/dra-controller", "run",
                                "--kubeconfig", kubeconfig};
  argv.insert(argv.end(), flags.begin(), flags.end());
  auto process = BackgroundProcess::Start(argv);
  if (!process.ok()) return process.status();
  std::unique_ptr<ChaosReplica> replica(new ChaosReplica(std::move(*process), std::move(name)));
  static const std::regex kMetrics("serving metrics on \\S+ \\(/metrics\\) port=(\\d+)");
  static const std::regex kProbes("serving probes on \\S+ \\(/healthz, /readyz\\) port=(\\d+)");
  auto ports = WaitFor(
      replica->name_ + " to serve metrics and probes", std::chrono::seconds(30),
      [&] {
        std::string out = replica->process_->Output();
        std::smatch m, p;
        if (!std::regex_search(out, m, kMetrics) || !std::regex_search(out, p, kProbes)) {
          return !replica->process_->Running();  // stop waiting for a dead process
        }
        replica->metrics_port_ = std::stoi(m[1]);
        replica->probe_port_ = std::stoi(p[1]);
        return true;
      },
      [&] { return replica->process_->Output(); });
  if (!ports.ok()) return ports;
  if (replica->metrics_port_ == 0) {
    return kube::Status(kube::StatusCode::kInternal,
                        replica->name_ + " exited at start:\n" + replica->process_->Output());
  }
  return replica;
}

kube::Result<std::string> ChaosReplica::Get(int port, const std::string& path,
                                            std::chrono::milliseconds timeout) const {
  kube::RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  config.request_timeout = timeout;
  auto transport = kube::HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  kube::HttpRequest request;
  request.path = path;
  auto response = (*transport)->Send(request);
  if (!response.ok()) return response.status();
  if (response->status != 200) {
    return kube::Status(kube::StatusCode::kUnavailable,
                        path + " answered " + std::to_string(response->status));
  }
  return response->body;
}

kube::Result<std::string> ChaosReplica::Scrape(std::chrono::milliseconds timeout) const {
  return Get(metrics_port_, "/metrics", timeout);
}

int ChaosReplica::MasterStatus(std::chrono::milliseconds timeout) const {
  auto page = Scrape(timeout);
  if (!page.ok()) return -1;
  return MetricsText::Parse(*page).Sum("leader_election_master_status") > 0 ? 1 : 0;
}

bool ChaosReplica::Ready(std::chrono::milliseconds timeout) const {
  return Get(probe_port_, "/readyz", timeout).ok();
}

}  // namespace dra::testing
