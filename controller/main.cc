#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "controller/check/KubectlPlugin.h"
#include "controller/cli/CheckCommand.h"
#include "controller/cli/CommandLine.h"
#include "controller/cli/DevicesCommand.h"
#include "controller/cli/DocsCommand.h"
#include "controller/cli/ExplainCommand.h"
#include "controller/cli/MappingCommand.h"
#include "controller/cli/MigrationReportCommand.h"
#include "controller/cli/RunCommand.h"
#include "controller/cli/TranslateCommand.h"
#include "controller/cli/VersionCommand.h"
#include "src/base/Logging.h"
#include "src/base/MallocArenas.h"

namespace {

// Two arenas, as the Deployment's MALLOC_ARENA_MAX=2 (which, like any
// MALLOC_ARENA_MAX or glibc.malloc.arena_max tunable, takes precedence).
constexpr int kMallocArenas = 2;
// The operator commands' log level: their warnings (a DeviceClass selector
// that fails, say) matter to the operator; `run` sets its own from --log-level.
constexpr const char* kCommandLogLevel = "warn";

}  // namespace

// A sanitizer's report must never pass for one of the binary's own exit codes
// (1 is a failed command, or a lost lease): sanitized builds exit 86 on a
// report, whatever the environment's *SAN_OPTIONS say of other settings.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() { return "exitcode=86"; }
extern "C" const char* __ubsan_default_options() { return "exitcode=86:print_stacktrace=1"; }
#endif
#if defined(__SANITIZE_THREAD__)
extern "C" const char* __tsan_default_options() { return "exitcode=86"; }
#endif

int main(int argc, char** argv) {
  // Before any thread exists: see src/base/MallocArenas.h.
  kube::MallocArenas::Limit(kMallocArenas);
  // A peer that hung up must cost a write EPIPE, never the process (as Go
  // programs behave); no library may rely on SIGPIPE's default.
  std::signal(SIGPIPE, SIG_IGN);
  // Logs go to stderr from the start: stdout carries only a command's data
  // (`devices -o json | jq` must parse), and spdlog's own default logger
  // writes to stdout.
  (void)kube::InitLogging(kCommandLogLevel);
  dra::cli::CommandLine cli;
  cli.Register(std::make_unique<dra::cli::RunCommand>());
  cli.Register(std::make_unique<dra::cli::VersionCommand>());
  cli.Register(std::make_unique<dra::cli::TranslateCommand>());
  cli.Register(std::make_unique<dra::cli::MigrationReportCommand>());
  cli.Register(std::make_unique<dra::cli::MappingCommand>());
  cli.Register(std::make_unique<dra::cli::DevicesCommand>());
  cli.Register(std::make_unique<dra::cli::ExplainCommand>());
  cli.Register(std::make_unique<dra::cli::CheckCommand>());
  cli.Register(std::make_unique<dra::cli::DocsCommand>());
  // Installed or linked as kubectl-dra, the binary is a kubectl plugin:
  // `kubectl dra check ...` runs `kubectl-dra check ...`, the same commands.
  std::vector<std::string> args(argv + 1, argv + argc);
  if (argc > 0 && dra::check::KubectlPlugin::InvokedAsPlugin(argv[0])) {
    args = dra::check::KubectlPlugin::Arguments(std::move(args));
  }
  return cli.Run(args, {std::cout, std::cerr});
}
