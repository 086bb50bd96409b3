#include "controller/docs/CompatibilityReference.h"

#include "controller/api/DraReleases.h"
#include "controller/docs/MarkdownTable.h"

namespace dra::docs {
namespace {

using api::DraCapability;
using api::DraReleases;

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : " + ") + MarkdownTable::Code(item);
  return out;
}

// What a job needs of a release: "yes", "yes (beta)" or the gates to turn on.
std::string Cell(DraCapability capability, int minor) {
  api::CapabilityInRelease in = DraReleases::In(capability, minor);
  if (in.on_by_default) return in.maturity == "GA" ? "yes" : "yes (" + in.maturity + ")";
  std::string cell = "gate " + Join(in.gates) + " (" + in.maturity + ")";
  if (!in.runtime_config.empty()) {
    cell += " and " + MarkdownTable::Code("--runtime-config=" + in.runtime_config);
  }
  return cell;
}

std::string Eviction(int minor) {
  return DraReleases::EvictsExtendedResourcePods(minor)
             ? "kube-controller-manager"
             : "dra-controller (kube-controller-manager skips them)";
}

struct Job {
  std::string name;
  std::string (*cell)(int minor);
};

const std::vector<Job>& Jobs() {
  static const std::vector<Job> kJobs = {
      {"Inventory, `devices`, `mapping`, `translate`, `migration-report`, allocation metrics",
       [](int) { return std::string("yes"); }},
      {"Extended resources backed by DRA (`explain`, Pod-claim joins, leak audit)",
       [](int m) { return Cell(DraCapability::kExtendedResources, m); }},
      {"Device health: DeviceTaintRules",
       [](int m) { return Cell(DraCapability::kDeviceTaintRules, m); }},
      {"Eviction of extended-resource Pods from a `NoExecute` device", Eviction},
      {"The kubelet's device health reports",
       [](int m) { return Cell(DraCapability::kHealthReports, m); }},
      {"Driver-published device taints in `check`",
       [](int m) { return Cell(DraCapability::kDriverTaints, m); }},
  };
  return kJobs;
}

}  // namespace

std::string CompatibilityReference::Table() {
  std::vector<std::string> header = {"Job"};
  for (int m = DraReleases::kOldestMinor; m <= DraReleases::kNewestMinor; ++m) {
    header.push_back("1." + std::to_string(m));
  }
  MarkdownTable table(header);
  for (const auto& job : Jobs()) {
    std::vector<std::string> row = {job.name};
    for (int m = DraReleases::kOldestMinor; m <= DraReleases::kNewestMinor; ++m) {
      row.push_back(job.cell(m));
    }
    table.AddRow(row);
  }
  return table.Render();
}

std::string CompatibilityReference::Markdown() {
  return "# Kubernetes versions and what each job needs\n\n"
         "Generated from the version table in the code (`controller/api/DraReleases.cc`) by "
         "`dra-controller docs compatibility`; after changing it, run `make docs`.\n\n"
         "`yes`: on by default. A gate: the feature gate to turn on (on kube-apiserver, "
         "kube-scheduler, kube-controller-manager and the kubelet), with the maturity it has in "
         "that release, and the API version to serve where it needs one. "
         "`dra-controller check` says the same for the cluster in front of it, asking the API "
         "server rather than trusting the version number: one `job-*` row per job.\n\n" +
         Table();
}

}  // namespace dra::docs
