#pragma once

#include <iostream>
#include <istream>

#include "controller/cli/Command.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/translate/InputSet.h"
#include "controller/translate/Translator.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {

// `dra-controller translate`: rewrites workload manifests that request
// DRA-backed extended resources into ResourceClaimTemplates plus the
// rewritten workload (see controller/translate/).
class TranslateCommand : public Command {
 public:
  explicit TranslateCommand(std::istream& in = std::cin);
  std::string_view Name() const override { return "translate"; }
  std::string_view Summary() const override {
    return "Rewrite extended-resource workloads into ResourceClaimTemplates";
  }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

 private:
  kube::Result<extended::ExtendedResourceMapping> LoadMapping(const kube::FlagSet& flags) const;
  static int Check(const translate::TranslateReport& report, CommandIo io);
  static int Diff(const translate::TranslateReport& report, CommandIo io);
  static kube::Status Write(const translate::TranslateReport& report,
                            const translate::InputSet& inputs, const std::string& output,
                            CommandIo io);
  static void PrintRefusals(const translate::TranslateReport& report, bool skipped, CommandIo io);

  std::istream& in_;
  kube::FlagSet flags_;
};

}  // namespace dra::cli
