#include "controller/cli/CheckCommand.h"

#include "controller/check/CheckInputsReader.h"
#include "controller/check/CheckReport.h"
#include "controller/check/Checklist.h"
#include "controller/check/InterruptFlag.h"
#include "controller/check/ScheduleTest.h"
#include "controller/cli/ClusterConnection.h"
#include "controller/cli/ControllerNeeds.h"
#include "src/base/Duration.h"

namespace dra::cli {
CheckCommand::CheckCommand() {
  ClusterConnection::DeclareFlags(flags_);
  flags_.String("namespace", "dra-system", "namespace of dra-controller's Deployment and Lease");
  flags_.Short('n', "namespace");
  flags_.String("leader-election-id", "dra-controller", "name of dra-controller's leader Lease");
  flags_.String("schedule-test", "",
                "also ask the scheduler: create short-lived Pods (and ResourceClaims) in this "
                "namespace for every mapped extended resource and DeviceClass, then delete them");
  flags_.String("schedule-timeout", "30s", "how long --schedule-test waits for verdicts");
  flags_.String("output", "", "output format: empty for a table, or json");
  flags_.Short('o', "output");
}

std::string CheckCommand::Help() const {
  return "Check whether a cluster is ready for DRA and dra-controller: Kubernetes version and\n"
         "resource.k8s.io/v1 served, DRA drivers and complete pools, DeviceClasses (extended\n"
         "resource names, duplicates, classes matching no device), device-plugin overlap,\n"
         "tainted devices and DeviceHealth not Healthy, the controller's Deployment and leader\n"
         "Lease, the caller's RBAC (SelfSubjectAccessReview), claims whose devices are reported\n"
         "not Ready and allocated claims without a running consumer.\n"
         "Prints one pass/warn/fail row per check. Exit 0 without fails, 1 with any fail.\n\n"
         "With --schedule-test NAMESPACE it also creates, in NAMESPACE, a Pod asking for each\n"
         "mapped extended resource (limits NAME: 1) and a ResourceClaim plus Pod for each\n"
         "DeviceClass, reports the kube-scheduler's verdict, and deletes them (also on Ctrl-C;\n"
         "a rerun deletes what a killed run left, by label " +
         std::string(check::ScheduleTest::kLabel) +
         ").\n\n"
         "Usage:\n  dra-controller check [-n NAMESPACE] [-o json] [--schedule-test NS] [flags]\n"
         "  kubectl dra check [-n NAMESPACE] [-o json] [--schedule-test NS] [flags]\n\n" +
         flags_.Usage();
}

int CheckCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (int usage = ParseTableCommandFlags(flags, args, io); usage != kExitOk) return usage;
  const std::string& output = flags.Get("output");
  auto connection = ClusterConnection::OpenOrReport(flags, io.err);
  if (!connection) return kExitFailure;
  check::CheckInputsReader::Options options;
  options.controller_needs = ControllerNeeds::For;
  options.namespace_name = flags.Get("namespace");
  options.lease_name = flags.Get("leader-election-id");
  auto inputs = check::CheckInputsReader::Read(connection->client(), options);
  auto results = check::Checklist::Run(inputs);
  if (!flags.Get("schedule-test").empty()) {
    auto timeout = kube::ParseDuration(flags.Get("schedule-timeout"));
    if (!timeout.ok()) return UsageError(io, "--schedule-timeout: " + timeout.status().message());
    if (inputs.snapshot == nullptr) {
      results.push_back(check::CheckResult::Fail("schedule-test", "no snapshot to test"));
    } else {
      check::InterruptFlag interrupt;
      check::ScheduleTest test(connection->client(), {flags.Get("schedule-test"), *timeout},
                               interrupt.flag());
      for (auto& r : test.Run(*inputs.snapshot)) results.push_back(std::move(r));
    }
  }
  check::CheckReport report(std::move(results));
  io.out << (output == "json" ? report.FormatJson() : report.FormatTable());
  return report.failed() ? kExitFailure : kExitOk;
}

}  // namespace dra::cli
