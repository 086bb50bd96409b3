#include "controller/cli/RunCommand.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string_view>

#include "controller/app/Controller.h"
#include "controller/cli/RunOptions.h"
#include "src/base/HeapTrimmer.h"
#include "src/base/Logging.h"
#include "src/config/ConfigLoader.h"

namespace dra::cli {
namespace {

// Blocks SIGINT/SIGTERM/SIGUSR1 in this thread and every thread it creates
// later, and waits for one of them: the only place they are received.
int WaitForShutdownSignal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR1);  // raised by the process itself when leadership is lost
  sigaddset(&set, SIGUSR2);  // raised by the process itself when a feature failed to wire
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

// `run` gives freed heap back once the slack grew by this much, and by an
// eighth of the heap in use (after the initial sync, after a burst); checked
// every 2 s while the heap moves, backing off to once a minute while it does not.
constexpr std::size_t kHeapTrimMinShrink = 4 << 20;
constexpr double kHeapTrimHeapShare = 0.125;
constexpr std::chrono::seconds kHeapTrimMinPeriod{2};
constexpr std::chrono::seconds kHeapTrimMaxPeriod{64};

// DRA_HEAP_TRIM=off turns the trimming off (to measure it, or should it cost too much).
void StartHeapTrimming(kube::HeapTrimmer& trimmer) {
  const char* trim = std::getenv("DRA_HEAP_TRIM");
  if (trim != nullptr && std::string_view(trim) == "off") return;
  trimmer.Start(kHeapTrimMinPeriod, kHeapTrimMaxPeriod);
}

void BlockShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace

RunCommand::RunCommand() : RunCommand(WaitForShutdownSignal) {}

RunCommand::RunCommand(ShutdownWaiter wait_for_shutdown)
    : features_(app::AllFeatures()), wait_for_shutdown_(std::move(wait_for_shutdown)) {
  RunOptions::Declare(flags_, features_);
}

std::string RunCommand::Help() const {
  return "Run the controller. It serves /healthz and /livez (the process is alive), /readyz\n"
         "(ready once the API server answers, resource.k8s.io/v1 is served and the informer\n"
         "caches, the device inventory's included, have synced) and /metrics, and runs until\n"
         "SIGINT or SIGTERM.\n\n"
         "Usage:\n  dra-controller run [flags]\n\n" +
         flags_.Usage();
}

int RunCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) {
    return UsageError(io, parsed.message());
  }
  auto options = RunOptions::FromFlags(flags, features_);
  if (!options.ok()) return UsageError(io, options.status().message());
  (void)kube::InitLogging(options->log_level);  // validated above
  for (const auto& off : options->features_off) spdlog::info("feature {}", off);
  BlockShutdownSignals();
  // Only now: a thread started earlier would not block the signals, and the
  // kernel may hand SIGTERM or SIGUSR1 to it, whose default action ends the
  // process without a clean shutdown.
  kube::HeapTrimmer trimmer(kHeapTrimMinShrink, kube::HeapTrimmer::GlibcProbe(), nullptr,
                            kHeapTrimHeapShare);
  StartHeapTrimming(trimmer);
  auto config = kube::ConfigLoader::Load(
      kube::ConfigLoader::FromEnvironment(options->kubeconfig, options->context));
  if (!config.ok()) {
    spdlog::error("cannot load Kubernetes configuration: {}", config.status().ToString());
    return kExitFailure;
  }
  spdlog::info("using {} (server {})", config->source, config->server);
  options->manager.on_leadership_lost = [] { kill(getpid(), SIGUSR1); };
  // The Manager has logged the error; nothing would be reconciled.
  options->manager.on_wiring_failed = [](const kube::Status&) { kill(getpid(), SIGUSR2); };
  app::Controller controller(*config, options->manager, std::move(features_), options->watch_list);
  controller.SetNotSelected(options->features_not_selected);
  if (kube::Status started = controller.Start(); !started.ok()) {
    spdlog::error("cannot start: {}", started.ToString());
    return kExitFailure;
  }
  int signal = wait_for_shutdown_();
  bool failed = signal == SIGUSR1 || signal == SIGUSR2;
  if (signal == SIGUSR1) {
    // As client-go's controllers do (klog.Fatal in OnStoppedLeading), the
    // process exits 1 so a restart campaigns again. The Manager fenced its
    // writers when the lease was lost (their requests fail from then on), so
    // the full teardown below lets no write through that an immediate exit
    // would have stopped.
    spdlog::error("leader election lost; shutting down so a restart can campaign again");
  } else if (signal == SIGUSR2) {
    spdlog::error("a feature could not be wired (see above); exiting");
  } else {
    spdlog::info("received {}, shutting down", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  }
  if (kube::Status stopped = controller.Stop(); !stopped.ok()) {
    spdlog::error("shutdown: {}; exiting now", stopped.message());
    std::fflush(nullptr);
    _exit(kExitFailure);  // writers may still run: no destructors, no lease release
  }
  spdlog::info("stopped");
  return failed ? kExitFailure : kExitOk;
}

}  // namespace dra::cli
