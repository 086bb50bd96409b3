#include "controller/cli/RunCommand.h"

#include <signal.h>
#include <spdlog/spdlog.h>

#include "controller/app/Controller.h"
#include "src/base/Logging.h"
#include "src/config/ConfigLoader.h"

namespace dra::cli {
namespace {

// Blocks SIGINT/SIGTERM in this thread and every thread it creates later, so
// that WaitForShutdownSignal() is the only place they are received.
sigset_t BlockShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

int WaitForShutdownSignal(const sigset_t& set) {
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

}  // namespace

RunCommand::RunCommand() {
  flags_.String("kubeconfig", "",
                "Path to a kubeconfig; without it and without $KUBECONFIG the in-cluster "
                "service account is used");
  flags_.String("context", "", "kubeconfig context to use (default: current-context)");
  flags_.String("metrics-bind-address", ":8080",
                "Address the /metrics endpoint binds to; \"0\" disables it");
  flags_.String("health-probe-bind-address", ":8081",
                "Address the /healthz and /readyz endpoints bind to");
  flags_.String("log-level", "info", "Log level: trace, debug, info, warn, error");
}

std::string RunCommand::Help() const {
  return "Run the controller. It serves /healthz and /readyz (ready once the API server answers\n"
         "and serves resource.k8s.io/v1) and /metrics, and runs until SIGINT or SIGTERM.\n\n"
         "Usage:\n  dra-controller run [flags]\n\n" +
         flags_.Usage();
}

int RunCommand::Run(std::span<const std::string> args, CommandIo io) {
  FlagSet flags = flags_;
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) {
    io.err << "error: " << parsed.message() << "\n";
    return kExitUsage;
  }
  if (!flags.positional().empty()) {
    io.err << "error: run takes no arguments (got \"" << flags.positional()[0] << "\")\n";
    return kExitUsage;
  }
  if (kube::Status logging = kube::InitLogging(flags.Get("log-level")); !logging.ok()) {
    io.err << "error: " << logging.message() << "\n";
    return kExitUsage;
  }
  sigset_t signals = BlockShutdownSignals();
  auto config = kube::ConfigLoader::Load(
      kube::ConfigLoader::FromEnvironment(flags.Get("kubeconfig"), flags.Get("context")));
  if (!config.ok()) {
    spdlog::error("cannot load Kubernetes configuration: {}", config.status().ToString());
    return kExitFailure;
  }
  spdlog::info("using {} (server {})", config->source, config->server);
  app::Controller controller(*config,
                             {.metrics_bind_address = flags.Get("metrics-bind-address"),
                              .health_probe_bind_address = flags.Get("health-probe-bind-address")});
  if (kube::Status started = controller.Start(); !started.ok()) {
    spdlog::error("cannot start: {}", started.ToString());
    return kExitFailure;
  }
  int signal = WaitForShutdownSignal(signals);
  spdlog::info("received {}, shutting down", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  controller.Stop();
  spdlog::info("stopped");
  return kExitOk;
}

}  // namespace dra::cli
