#include "tests/support/RunningController.h"

#include <signal.h>

#include <charconv>
#include <string_view>

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

// The number after " port=" on the first log line holding `anchor` and then
// `marker`. Plain string search: GCC 12 warns inside <regex> under the
// sanitizer builds, which compile this library with -Werror.
kube::Result<int> PortOnLine(const std::string& log, std::string_view anchor,
                             std::string_view marker) {
  for (size_t at = log.find(anchor); at != std::string::npos; at = log.find(anchor, at + 1)) {
    size_t end = log.find('\n', at);
    std::string_view line(log.data() + at, (end == std::string::npos ? log.size() : end) - at);
    if (line.find(marker) == std::string_view::npos) continue;
    size_t key = line.find(" port=");
    if (key == std::string_view::npos) continue;
    std::string_view digits = line.substr(key + 6);
    int port = 0;
    auto [next, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (error == std::errc() && next != digits.data()) return port;
  }
  return kube::Status(kube::StatusCode::kNotFound,
                      "no \"" + std::string(anchor) + "\" port in the log:\n" + log);
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
  return PortOnLine(log, "serving metrics on ", "(/metrics");
}

kube::Result<int> RunningController::ProbePortIn(const std::string& log) {
  return PortOnLine(log, "serving probes on ", "(/healthz, /readyz)");
}

kube::Result<int> RunningController::WebhookPortIn(const std::string& log) {
  return PortOnLine(log, "serving the Alertmanager webhook on ", "");
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
