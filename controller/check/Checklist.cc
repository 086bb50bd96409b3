#include "controller/check/Checklist.h"

#include "controller/check/ApiChecks.h"
#include "controller/check/ClaimChecks.h"
#include "controller/check/ControllerChecks.h"
#include "controller/check/DeviceChecks.h"
#include "controller/check/JobChecks.h"
#include "controller/check/MetricsReachability.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingAudit.h"
#include "controller/extended/SchedulerMappingEvidence.h"

namespace dra::check {

void Checklist::SnapshotChecks(const CheckInputs& in, std::vector<CheckResult>& out) {
  if (in.snapshot == nullptr) {
    out.push_back(CheckResult::Fail(
        "cluster-snapshot", "cannot list DRA objects, nodes and pods: " + in.snapshot_error));
    return;
  }
  const auto& s = *in.snapshot;
  auto mapping = extended::ExtendedResourceMapping::Build(s.classes);
  auto findings = extended::MappingAudit::Run(s.classes, s.nodes, mapping, *s.inventory);
  for (auto& hazard :
       extended::SchedulerMappingEvidence::Findings(s.pods, mapping, s.nodes, in.now)) {
    findings.push_back(std::move(hazard));
  }
  out.push_back(DeviceChecks::DriversAndPools(s));
  out.push_back(DeviceChecks::Classes(s));
  out.push_back(DeviceChecks::Duplicates(findings));
  out.push_back(DeviceChecks::OrderHazard(findings));
  out.push_back(DeviceChecks::NoDevices(findings));
  out.push_back(DeviceChecks::DevicePluginOverlap(findings));
  out.push_back(DeviceChecks::Taints(s));
  out.push_back(DeviceChecks::DriverTaints(s));
}

std::vector<CheckResult> Checklist::Run(const CheckInputs& in) {
  std::vector<CheckResult> out;
  out.push_back(ApiChecks::Version(in));
  out.push_back(ApiChecks::ResourcesServed(in));
  out.push_back(JobChecks::DeviceHealth(in));
  out.push_back(JobChecks::ExtendedResources(in));
  out.push_back(JobChecks::KubeletHealthReports(in));
  SnapshotChecks(in, out);
  out.push_back(DeviceChecks::Health(in));
  out.push_back(ControllerChecks::Deployment(in));
  out.push_back(ControllerChecks::Lease(in));
  out.push_back(ControllerChecks::SourcePolicy(in));
  out.push_back(MetricsReachability::Judge(in.metrics));
  out.push_back(ControllerChecks::Access(in));
  out.push_back(ControllerChecks::ControllerAccess(in));
  out.push_back(ClaimChecks::DeviceConditions(in));
  if (in.snapshot != nullptr) out.push_back(ClaimChecks::Reservations(*in.snapshot));
  return out;
}

}  // namespace dra::check
