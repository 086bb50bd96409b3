#pragma once

#include "controller/cli/Command.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller explain pod NS/NAME`: how the scheduler turns the Pod's
// extended resources into an implicit claim, and why each node can or cannot
// serve it; for a scheduled Pod, the claim and the devices it holds.
// Exit 0 scheduled or schedulable, 1 not (or the scheduled Pod's claim has a
// problem), 2 usage.
class ExplainCommand : public Command {
 public:
  ExplainCommand();
  std::string_view Name() const override { return "explain"; }
  std::string_view Summary() const override {
    return "Explain a Pod's extended resources: implicit claim, node verdicts, devices held";
  }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  kube::FlagSet flags_;
};

}  // namespace dra::cli
