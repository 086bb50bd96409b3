#include "controller/cli/RunCommand.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "controller/app/Controller.h"
#include "src/base/Duration.h"
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
  sigaddset(&set, SIGUSR1);  // raised by the process itself when leadership is lost
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

kube::Status ParseElectionDurations(const FlagSet& flags, app::ControllerOptions& options) {
  struct Target {
    const char* flag;
    std::chrono::milliseconds* value;
  };
  for (Target t : {Target{"leader-elect-lease-duration", &options.lease_duration},
                   Target{"leader-elect-renew-deadline", &options.renew_deadline},
                   Target{"leader-elect-retry-period", &options.retry_period}}) {
    auto parsed = kube::ParseDuration(flags.Get(t.flag));
    if (!parsed.ok()) return parsed.status().WithContext(std::string("--") + t.flag);
    *t.value = *parsed;
  }
  if (options.renew_deadline >= options.lease_duration ||
      options.retry_period >= options.renew_deadline) {
    return kube::Status(kube::StatusCode::kInvalidArgument,
                        "leader election needs retry-period < renew-deadline < lease-duration");
  }
  return kube::Status::Ok();
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
  flags_.Bool("leader-elect", false,
              "Elect a leader on a coordination.k8s.io Lease before reconciling, so several "
              "replicas can run; the process exits when it loses the lease");
  flags_.String(
      "leader-election-namespace", "",
      "Namespace of the Lease (default: the service account's or kubeconfig's namespace)");
  flags_.String("leader-election-id", "dra-controller", "Name of the Lease");
  flags_.String("leader-elect-lease-duration", "15s", "How long a lease is valid without renewal");
  flags_.String("leader-elect-renew-deadline", "10s", "How long the leader retries renewing");
  flags_.String("leader-elect-retry-period", "2s", "How often candidates try to acquire or renew");
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
  app::ControllerOptions options;
  options.metrics_bind_address = flags.Get("metrics-bind-address");
  options.health_probe_bind_address = flags.Get("health-probe-bind-address");
  options.leader_elect = flags.GetBool("leader-elect");
  options.leader_election_namespace = flags.Get("leader-election-namespace");
  options.leader_election_id = flags.Get("leader-election-id");
  if (kube::Status durations = ParseElectionDurations(flags, options); !durations.ok()) {
    spdlog::error("{}", durations.message());
    return kExitUsage;
  }
  options.on_leadership_lost = [] { kill(getpid(), SIGUSR1); };
  app::Controller controller(*config, options);
  if (kube::Status started = controller.Start(); !started.ok()) {
    spdlog::error("cannot start: {}", started.ToString());
    return kExitFailure;
  }
  int signal = WaitForShutdownSignal(signals);
  if (signal == SIGUSR1) {
    spdlog::error("leader election lost; exiting so a restart can campaign again");
    controller.Stop();
    return kExitFailure;
  }
  spdlog::info("received {}, shutting down", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  controller.Stop();
  spdlog::info("stopped");
  return kExitOk;
}

}  // namespace dra::cli
