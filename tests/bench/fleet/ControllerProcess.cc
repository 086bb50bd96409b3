#include "tests/bench/fleet/ControllerProcess.h"

#include <chrono>
#include <filesystem>
#include <regex>

#include "src/http/HttpTransport.h"
#include "tests/bench/fleet/ProcessProbe.h"
#include "tests/support/WaitFor.h"

namespace dra::bench {

using namespace std::chrono_literals;
using dra::testing::BackgroundProcess;
using Clock = std::chrono::steady_clock;

namespace {

kube::Result<kube::HttpResponse> Get(int port, const std::string& path) {
  kube::RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  config.request_timeout = 30s;
  auto transport = kube::HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  kube::HttpRequest request;
  request.path = path;
  return (*transport)->Send(request);
}

int PortFromLog(const std::string& log, const std::string& what) {
  std::smatch match;
  std::regex pattern("serving " + what + " on \\S+ .* port=(\\d+)");
  return std::regex_search(log, match, pattern) ? std::stoi(match[1]) : 0;
}

// Bench programs get no build paths: the controller is next to tests/.
std::string BuildDir() {
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "build" : exe.parent_path().parent_path().string();
}

}  // namespace

std::string ControllerProcess::WriteKubeconfig(const dra::testing::TempDir& dir, int server_port) {
  return dir.Write("kubeconfig",
                   "apiVersion: v1\nkind: Config\nclusters:\n- name: replay\n  cluster:\n"
                   "    server: http://127.0.0.1:" +
                       std::to_string(server_port) +
                       "\ncontexts:\n- name: replay\n  context:\n    cluster: replay\n"
                       "current-context: replay\n");
}

kube::Status ControllerProcess::Start(int server_port) {
  std::string kubeconfig = WriteKubeconfig(dir, server_port);
  std::string binary = BuildDir() + "/dra-controller";
  auto start = Clock::now();
  auto started = BackgroundProcess::Start(
      {binary, "run", "--kubeconfig", kubeconfig, "--metrics-bind-address", "127.0.0.1:0",
       "--health-probe-bind-address", "127.0.0.1:0", "--watch-list", "off", "--health-preview", "0",
       "--health-hold-off", "0"});
  if (!started.ok()) return started.status();
  process = std::move(*started);
  auto ready = dra::testing::WaitFor("controller /readyz", 900s, [&] {
    std::string log = process->Output();
    if (probe_port == 0) probe_port = PortFromLog(log, "probes");
    if (metrics_port == 0) metrics_port = PortFromLog(log, "metrics");
    if (probe_port == 0 || !process->Running()) return !process->Running();
    auto reply = Get(probe_port, "/readyz");
    return reply.ok() && reply->status == 200;
  });
  if (!process->Running()) {
    return kube::Status(kube::StatusCode::kInternal, "controller exited: " + process->Output());
  }
  sync_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  sync_cpu_seconds = ProcessProbe::CpuSeconds(process->pid());
  return ready;
}

std::string ControllerProcess::Scrape() const {
  auto reply = Get(metrics_port, "/metrics");
  return reply.ok() ? reply->body : "";
}

}  // namespace dra::bench
