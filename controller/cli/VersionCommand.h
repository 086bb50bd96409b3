#pragma once

#include "controller/cli/Command.h"

namespace dra::cli {

// `dra-controller version` (or `--version`): prints the binary's version, the
// Kubernetes release it is built against and the API versions it uses.
class VersionCommand : public Command {
 public:
  std::string_view Name() const override { return "version"; }
  std::string_view Summary() const override { return "Print the version and exit"; }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;
};

}  // namespace dra::cli
