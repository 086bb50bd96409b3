#pragma once

#include "controller/cli/Command.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller check` (or `kubectl dra check`): is this cluster ready for
// DRA and dra-controller? One pass/warn/fail row per check; exit 1 on any fail.
class CheckCommand : public Command {
 public:
  CheckCommand();
  std::string_view Name() const override { return "check"; }
  std::string_view Summary() const override {
    return "Check a cluster's readiness for DRA: a pass/warn/fail table";
  }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  kube::FlagSet flags_;
};

}  // namespace dra::cli
