#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "tests/support/BackgroundProcess.h"

namespace dra::testing {

// `dra-controller run` started by an integration test and waited on until
// given log lines appear, with the ports it chose for /metrics and the probes
// read back from its log (tests bind port 0).
class RunningController {
 public:
  // The listeners whose port= lines the log carries.
  enum class Port { kMetrics, kProbes, kWebhook };
  struct Options {
    std::string kubeconfig;
    std::string metrics_bind_address = "127.0.0.1:0";
    std::string probe_bind_address = "127.0.0.1:0";
    // The test's own flags, after the kubeconfig and the bind addresses.
    std::vector<std::string> args;
    // Start returns once every one of these lines, and every one of these
    // ports, is in the log.
    std::vector<std::string> wait_for;
    std::vector<Port> wait_for_ports;
    std::string what = "the controller to start";
    std::chrono::milliseconds deadline = std::chrono::seconds(60);
  };
  struct HttpAnswer {
    int status = 0;
    std::string body;
  };

  static kube::Result<std::unique_ptr<RunningController>> Start(const Options& options);
  // `argv` as given (binary first), for a command line the test builds itself;
  // only the waiting fields of `options` apply.
  static kube::Result<std::unique_ptr<RunningController>> StartArgv(
      const std::vector<std::string>& argv, const Options& options);

  BackgroundProcess& process() { return *process_; }
  std::string Output() const { return process_->Output(); }
  // From the log as it is now: an error naming the log when not there (yet).
  kube::Result<int> metrics_port() const { return MetricsPortIn(Output()); }
  kube::Result<int> probe_port() const { return ProbePortIn(Output()); }
  kube::Result<int> webhook_port() const { return WebhookPortIn(Output()); }
  // SIGTERM, then its exit code once it exits, or nullopt on timeout.
  std::optional<int> Stop(std::chrono::milliseconds timeout = std::chrono::seconds(15));

  // The pure parts, unit-tested.
  static std::vector<std::string> Argv(const std::string& binary, const Options& options);
  static kube::Result<int> MetricsPortIn(const std::string& log);
  static kube::Result<int> ProbePortIn(const std::string& log);
  static kube::Result<int> WebhookPortIn(const std::string& log);
  static kube::Result<int> PortIn(const std::string& log, Port port);
  // curl's output for `-w "\n%{http_code}"`: the body, a newline, the status.
  static kube::Result<HttpAnswer> ParseCurlAnswer(const std::string& out);

  // GET http://127.0.0.1:<port><path> (curl, as an operator would).
  static kube::Result<HttpAnswer> Get(int port, const std::string& path);

 private:
  explicit RunningController(std::unique_ptr<BackgroundProcess> process)
      : process_(std::move(process)) {}

  std::unique_ptr<BackgroundProcess> process_;
};

}  // namespace dra::testing
