#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "controller/cli/Command.h"

namespace dra::cli {

// Dispatches `dra-controller COMMAND [ARGS...]` to the registered commands and
// answers `--help` / `help` for the binary and for each command.
class CommandLine {
 public:
  void Register(std::unique_ptr<Command> command);
  int Run(std::span<const std::string> argv, CommandIo io);

 private:
  Command* Find(std::string_view name) const;
  void PrintUsage(std::ostream& out) const;

  std::vector<std::unique_ptr<Command>> commands_;
};

}  // namespace dra::cli
