#pragma once

#include <vector>

#include "controller/check/CheckInputs.h"
#include "controller/check/CheckResult.h"
#include "controller/extended/MappingFinding.h"
#include "controller/inventory/TaintSource.h"

namespace dra::check {

// Drivers, pools, DeviceClasses and the state of devices, judged from the
// snapshot (and the MappingAudit findings computed from it).
class DeviceChecks {
 public:
  using Findings = std::vector<extended::MappingFinding>;

  // DRA drivers seen in ResourceSlices; fail when a pool misses slices.
  static CheckResult DriversAndPools(const report::ClusterSnapshot& s);
  // Classes with and without spec.extendedResourceName (informational).
  static CheckResult Classes(const report::ClusterSnapshot& s);
  // Two classes naming the same extended resource: fail.
  static CheckResult Duplicates(const Findings& findings);
  // Fails while Pending Pods show kube-scheduler refusing a name a class serves.
  static CheckResult OrderHazard(const Findings& findings);
  // Classes whose selectors match no published device: warn.
  static CheckResult NoDevices(const Findings& findings);
  // Nodes serving a mapped name by device plugin and by DRA: fail.
  static CheckResult DevicePluginOverlap(const Findings& findings);
  // Devices a DeviceTaintRule taints NoSchedule/NoExecute: fail; effect
  // None: warn. Each names the rule, and for dra-controller's own rules the
  // DeviceHealth behind it.
  static CheckResult Taints(const report::ClusterSnapshot& s);
  // Devices their DRA driver taints NoSchedule/NoExecute in its
  // ResourceSlices (e.g. after an XID): warn, counted per driver with a few
  // examples. The GPUs are out for the driver's reasons, not a rule's.
  static CheckResult DriverTaints(const report::ClusterSnapshot& s);
  // DeviceHealth objects whose spec.state is not Healthy: fail; CRD absent: warn.
  static CheckResult Health(const CheckInputs& in);

 private:
  static std::string RuleText(const inventory::TaintSource& source);
  static std::vector<std::string> Describe(const Findings& findings,
                                           extended::MappingFinding::Kind kind,
                                           const std::string& object_kind = "");
};

}  // namespace dra::check
