#include "controller/cli/MappingCommand.h"

#include "controller/cli/ClusterConnection.h"
#include "controller/extended/MappingAudit.h"
#include "controller/report/ClusterSnapshot.h"
#include "controller/report/MappingReport.h"

namespace dra::cli {
MappingCommand::MappingCommand() {
  ClusterConnection::DeclareFlags(flags_);
  flags_.String("output", "", "output format: empty for a table, or json");
  flags_.Short('o', "output");
}

std::string MappingCommand::Help() const {
  return "Show which DeviceClass serves each extended resource name (explicit\n"
         "spec.extendedResourceName and the implicit deviceclass.resource.kubernetes.io/<class>)\n"
         "by the kube-scheduler's rules, and the problems found: duplicate names, classes\n"
         "matching no device, nodes that serve a name through a device plugin and DRA.\n"
         "Exit 0 without findings, 1 with findings or when the cluster cannot be read.\n\n"
         "Usage:\n  dra-controller mapping [-o json] [flags]\n\n" +
         flags_.Usage();
}

int MappingCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (int usage = ParseTableCommandFlags(flags, args, io); usage != kExitOk) return usage;
  const std::string& output = flags.Get("output");
  auto connection = ClusterConnection::OpenOrReport(flags, io.err);
  if (!connection) return kExitFailure;
  auto snapshot = report::ClusterSnapshot::List(connection->client(), {});
  if (!snapshot.ok()) {
    io.err << "error: cannot read the cluster: " << snapshot.status().message() << "\n";
    return kExitFailure;
  }
  const auto& s = **snapshot;
  auto mapping = extended::ExtendedResourceMapping::Build(s.classes);
  auto report = report::MappingReport::Build(
      s.classes, *s.inventory,
      extended::MappingAudit::Run(s.classes, s.nodes, mapping, *s.inventory));
  io.out << (output == "json" ? report.FormatJson() : report.FormatTable());
  return report.findings().empty() ? kExitOk : kExitFailure;
}

}  // namespace dra::cli
