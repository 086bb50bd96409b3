#include "controller/cli/MappingCommand.h"

#include <ctime>

#include "controller/cli/ClusterConnection.h"
#include "controller/extended/MappingAudit.h"
#include "controller/extended/SchedulerMappingEvidence.h"
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
         "matching no device, nodes that serve a name through a device plugin and DRA, and\n"
         "the order hazard as Pending Pods show it (kube-scheduler refusing a name a class\n"
         "serves), unless the class was touched less than 5.5 minutes ago (the scheduler\n"
         "retries the Pod within that).\n"
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
  auto snapshot = report::ClusterSnapshot::List(connection->client(), {.with_pods = true});
  if (!snapshot.ok()) {
    io.err << "error: cannot read the cluster: " << snapshot.status().message() << "\n";
    return kExitFailure;
  }
  const auto& s = **snapshot;
  auto mapping = extended::ExtendedResourceMapping::Build(s.classes);
  auto findings = extended::MappingAudit::Run(s.classes, s.nodes, mapping, *s.inventory);
  for (auto& hazard : extended::SchedulerMappingEvidence::Findings(
           s.pods, mapping, s.nodes, static_cast<int64_t>(std::time(nullptr)))) {
    findings.push_back(std::move(hazard));
  }
  auto report = report::MappingReport::Build(s.classes, *s.inventory, std::move(findings));
  io.out << (output == "json" ? report.FormatJson() : report.FormatTable());
  return report.findings().empty() ? kExitOk : kExitFailure;
}

}  // namespace dra::cli
