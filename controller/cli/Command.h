#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "src/flags/FlagSet.h"

namespace dra::cli {

// Process exit codes shared by every command (documented in the README).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // the command ran and found a failure (or could not finish)
  kExitUsage = 2,    // bad flags or arguments
};

struct CommandIo {
  std::ostream& out;
  std::ostream& err;
};

// One subcommand of the dra-controller binary.
class Command {
 public:
  virtual ~Command() = default;
  virtual std::string_view Name() const = 0;
  virtual std::string_view Summary() const = 0;
  // Left out of `dra-controller --help`; still runs and has its own --help.
  virtual bool Hidden() const { return false; }
  // Full help text printed for `dra-controller NAME --help`.
  virtual std::string Help() const = 0;
  virtual int Run(std::span<const std::string> args, CommandIo io) = 0;

 protected:
  // Parses `args` for a command that takes no positional argument and an
  // `--output` of "" or "json". Returns kExitOk, or kExitUsage after printing
  // the usage error.
  int ParseTableCommandFlags(kube::FlagSet& flags, std::span<const std::string> args,
                             CommandIo io) const {
    if (kube::Status parsed = flags.Parse(args); !parsed.ok()) {
      return UsageError(io, parsed.message());
    }
    if (!flags.positional().empty()) {
      return UsageError(io, "unexpected argument " + flags.positional()[0]);
    }
    const std::string& output = flags.Get("output");
    if (!output.empty() && output != "json") return UsageError(io, "-o must be json");
    return kExitOk;
  }

  // Prints "error: MESSAGE" and the --help hint; returns kExitUsage.
  int UsageError(CommandIo io, const std::string& message) const {
    io.err << "error: " << message << "\nSee 'dra-controller " << Name() << " --help'.\n";
    return kExitUsage;
  }
};

}  // namespace dra::cli
