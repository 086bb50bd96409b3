#include "controller/cli/DevicesCommand.h"

#include "controller/cli/ClusterConnection.h"
#include "controller/report/ClusterSnapshot.h"
#include "controller/report/DeviceListing.h"

namespace dra::cli {
DevicesCommand::DevicesCommand() {
  ClusterConnection::DeclareFlags(flags_);
  flags_.String("node", "", "only devices on this node (and those every node reaches)");
  flags_.String("class", "", "only devices this DeviceClass matches");
  flags_.String("driver", "", "only devices of this driver");
  flags_.String("state", "",
                "only devices whose state names this: free, allocated, unavailable or tainted");
  flags_.String("output", "", "output format: empty for a table, or json");
  flags_.Short('o', "output");
}

std::string DevicesCommand::Help() const {
  return "List the devices published in ResourceSlices (newest pool generation), one line\n"
         "each: node, driver/pool/device, the DeviceClasses matching it, its state\n"
         "(allocated; unavailable with why: pool incomplete, pool invalid, counters in\n"
         "use, no capacity left; tainted: NoSchedule or NoExecute; free; every one\n"
         "that applies, e.g. allocated,tainted), taints, and the Pod and claim holding\n"
         "it (claims with adminAccess marked, they do not allocate it).\n\n"
         "Usage:\n  dra-controller devices [--node N] [--class C] [--driver D] "
         "[--state free|allocated|unavailable|tainted] [-o json]\n\n" +
         flags_.Usage();
}

int DevicesCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (int usage = ParseTableCommandFlags(flags, args, io); usage != kExitOk) return usage;
  report::DeviceListing::Filter filter{flags.Get("node"), flags.Get("class"), flags.Get("driver"),
                                       flags.Get("state")};
  if (auto error = report::DeviceListing::ValidateState(filter.state); !error.empty()) {
    return UsageError(io, error);
  }
  const std::string& output = flags.Get("output");
  auto connection = ClusterConnection::OpenOrReport(flags, io.err);
  if (!connection) return kExitFailure;
  auto snapshot = report::ClusterSnapshot::List(connection->client(), {});
  if (!snapshot.ok()) {
    io.err << "error: cannot read the cluster: " << snapshot.status().message() << "\n";
    return kExitFailure;
  }
  auto rows = report::DeviceListing::Build(*(*snapshot)->inventory, filter);
  io.out << (output == "json" ? report::DeviceListing::FormatJson(rows)
                              : report::DeviceListing::FormatTable(rows));
  return kExitOk;
}

}  // namespace dra::cli
