#pragma once

#include <string>
#include <string_view>

#include "controller/cli/Command.h"
#include "src/base/Result.h"

namespace dra::cli {

// `dra-controller docs flags|metrics|crd`: prints a reference page of
// docs/reference/ as the code defines it (`make docs` writes them; a unit
// test fails when a checked-in page differs). Left out of the command list:
// it is for maintainers, not operators.
class DocsCommand : public Command {
 public:
  // Where the DeviceHealth CRD lives, relative to the repository.
  static constexpr const char* kCrdPath = "crds/devicehealths.dra-controller.dev.yaml";

  std::string_view Name() const override { return "docs"; }
  std::string_view Summary() const override { return "Print a generated reference page"; }
  bool Hidden() const override { return true; }
  std::string Help() const override;
  int Run(std::span<const std::string> args, CommandIo io) override;

  // The page `topic` (flags, metrics or crd) names; crd reads kCrdPath
  // under `repo`.
  static kube::Result<std::string> Generate(std::string_view topic, const std::string& repo);
};

}  // namespace dra::cli
