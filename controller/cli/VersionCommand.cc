#include "controller/cli/VersionCommand.h"

#include "controller/BuildInfo.h"
#include "controller/api/DeviceHealth.h"

namespace dra::cli {

std::string VersionCommand::Help() const {
  return "Print the version of dra-controller, the Kubernetes release it is built against and\n"
         "the API versions it uses (DRA's resource.k8s.io, its own DeviceHealth).\n\n"
         "Usage:\n  dra-controller version\n  dra-controller --version\n";
}

int VersionCommand::Run(std::span<const std::string> args, CommandIo io) {
  if (!args.empty()) {
    io.err << "error: version takes no arguments (got \"" << args[0] << "\")\n";
    return kExitUsage;
  }
  io.out << "dra-controller " << build::kVersion << " (Kubernetes " << build::kTargetKubernetes
         << ", resource.k8s.io/v1, " << api::DeviceHealth::kResource.ApiVersion() << ")\n";
  return kExitOk;
}

}  // namespace dra::cli
