#pragma once

#include "controller/cli/Command.h"
#include "controller/translate/MigrationReport.h"
#include "src/client/RestClient.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller migration-report`: read-only inventory of the workloads
// that request extended resources and what each needs to move to DRA
// (see controller/translate/MigrationReport.h).
class MigrationReportCommand : public Command {
 public:
  MigrationReportCommand();
  std::string_view Name() const override { return "migration-report"; }
  std::string_view Summary() const override {
    return "List extended-resource workloads and how each can move to DRA";
  }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  static kube::Result<translate::ClusterObjects> Read(kube::RestClient& client,
                                                      const std::string& ns);

  kube::FlagSet flags_;
};

}  // namespace dra::cli
