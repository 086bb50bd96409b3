#pragma once

#include "controller/cli/Command.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller devices`: one line per DRA device (node, driver/pool/device,
// matching classes, state, taints, the Pod and claim holding it).
class DevicesCommand : public Command {
 public:
  DevicesCommand();
  std::string_view Name() const override { return "devices"; }
  std::string_view Summary() const override {
    return "List DRA devices with their classes, state, taints and holders";
  }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  kube::FlagSet flags_;
};

}  // namespace dra::cli
