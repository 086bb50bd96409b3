#pragma once

#include <functional>

#include "controller/app/Features.h"
#include "controller/cli/Command.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller run`: the in-cluster controller process. Runs until SIGINT
// or SIGTERM, then shuts down cleanly and exits 0.
class RunCommand : public Command {
 public:
  // Blocks until the process should stop; returns the signal number
  // (SIGUSR1: leadership lost; SIGUSR2: a feature failed to wire). Tests
  // inject their own.
  using ShutdownWaiter = std::function<int()>;

  RunCommand();
  explicit RunCommand(ShutdownWaiter wait_for_shutdown);
  std::string_view Name() const override { return "run"; }
  std::string_view Summary() const override { return "Run the controller until SIGINT/SIGTERM"; }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  app::FeatureList features_;  // moved into the Controller by Run()
  kube::FlagSet flags_;
  ShutdownWaiter wait_for_shutdown_;
};

}  // namespace dra::cli
