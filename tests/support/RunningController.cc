#include "tests/support/RunningController.h"

#include <signal.h>

#include <regex>

#include "tests/support/ControllerUnderTest.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

bool HasAll(const std::string& log, const RunningController::Options& options) {
  for (const std::string& line : options.wait_for) {
    if (log.find(line) == std::string::npos) return false;
  }
  for (RunningController::Port port : options.wait_for_ports) {
    if (!RunningController::PortIn(log, port).ok()) return false;
  }
  return true;
}

kube::Result<int> PortMatching(const std::string& log, const std::regex& pattern,
                               const std::string& what) {
  std::smatch port;
  if (!std::regex_search(log, port, pattern)) {
    return kube::Status(kube::StatusCode::kNotFound,
                        "no \"" + what + "\" port in the log:\n" + log);
  }
  return std::stoi(port[1]);
}

}  // namespace

kube::Result<std::unique_ptr<RunningController>> RunningController::Start(const Options& options) {
  return StartArgv(Argv(ControllerUnderTest::Binary(), options), options);
}

kube::Result<std::unique_ptr<RunningController>> RunningController::StartArgv(
    const std::vector<std::string>& argv, const Options& options) {
  auto process = BackgroundProcess::Start(argv);
  if (!process.ok()) return process.status();
  std::unique_ptr<RunningController> controller(new RunningController(std::move(*process)));
  BackgroundProcess& running = controller->process();
  kube::Status up = WaitFor(
      options.what, options.deadline, [&] { return HasAll(running.Output(), options); },
      [&] { return running.Output(); });
  if (!up.ok()) return up;
  return controller;
}

std::optional<int> RunningController::Stop(std::chrono::milliseconds timeout) {
  process_->Signal(SIGTERM);
  return process_->Wait(timeout);
}

std::vector<std::string> RunningController::Argv(const std::string& binary,
                                                 const Options& options) {
  std::vector<std::string> argv{binary,
                                "run",
                                "--kubeconfig",
                                options.kubeconfig,
                                "--metrics-bind-address",
                                options.metrics_bind_address,
                                "--health-probe-bind-address",
                                options.probe_bind_address};
  argv.insert(argv.end(), options.args.begin(), options.args.end());
  return argv;
}

kube::Result<int> RunningController::MetricsPortIn(const std::string& log) {
  // "(/metrics)", or "(/metrics, HTTPS, ...)" with --metrics-secure.
  static const std::regex kPort(R"(serving metrics on \S+ \(/metrics[^)]*\) port=(\d+))");
  return PortMatching(log, kPort, "serving metrics on");
}

kube::Result<int> RunningController::ProbePortIn(const std::string& log) {
  static const std::regex kPort(R"(serving probes on \S+ \(/healthz, /readyz\) port=(\d+))");
  return PortMatching(log, kPort, "serving probes on");
}

kube::Result<int> RunningController::WebhookPortIn(const std::string& log) {
  static const std::regex kPort(R"(serving the Alertmanager webhook on \S+ .*port=(\d+))");
  return PortMatching(log, kPort, "serving the Alertmanager webhook on");
}

kube::Result<int> RunningController::PortIn(const std::string& log, Port port) {
  switch (port) {
    case Port::kMetrics:
      return MetricsPortIn(log);
    case Port::kProbes:
      return ProbePortIn(log);
    case Port::kWebhook:
      return WebhookPortIn(log);
  }
  return kube::Status(kube::StatusCode::kInvalidArgument, "unknown port");
}

kube::Result<RunningController::HttpAnswer> RunningController::ParseCurlAnswer(
    const std::string& out) {
  auto newline = out.rfind('\n');
  std::string code = newline == std::string::npos ? out : out.substr(newline + 1);
  if (code.size() != 3 || code.find_first_not_of("0123456789") != std::string::npos) {
    return kube::Status(kube::StatusCode::kParseError, "no HTTP status at the end of: " + out);
  }
  HttpAnswer answer;
  answer.status = std::stoi(code);
  if (newline != std::string::npos) answer.body = out.substr(0, newline);
  return answer;
}

kube::Result<RunningController::HttpAnswer> RunningController::Get(int port,
                                                                   const std::string& path) {
  auto got = Subprocess::Run({"curl", "-s", "-o", "-", "-w", "\n%{http_code}",
                              "http://127.0.0.1:" + std::to_string(port) + path});
  if (!got.ok()) return got.status();
  return ParseCurlAnswer(got->out);
}

}  // namespace dra::testing
