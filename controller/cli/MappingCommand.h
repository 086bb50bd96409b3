#pragma once

#include "controller/cli/Command.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller mapping`: the extended-resource -> DeviceClass map the
// scheduler converges to, with the findings (duplicates, classes without
// devices, device-plugin overlap), from one list of the cluster's objects.
class MappingCommand : public Command {
 public:
  MappingCommand();
  std::string_view Name() const override { return "mapping"; }
  std::string_view Summary() const override {
    return "Show the extended resource to DeviceClass mapping and its problems";
  }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  kube::FlagSet flags_;
};

}  // namespace dra::cli
