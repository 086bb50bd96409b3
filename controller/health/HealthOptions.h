#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "controller/health/DeviceAttributeNames.h"

namespace dra::health {

// The device-health policy knobs `run` takes from its --health-* flags.
struct HealthOptions {
  // An Unhealthy device is NoSchedule for this long before NoExecute (0: off).
  std::chrono::seconds preview{30};
  // A taint stays this long after the state returns to Healthy.
  std::chrono::seconds hold_off{std::chrono::minutes(5)};
  // Most devices of a pool, and of a driver cluster-wide, under NoExecute at
  // once, as a share in [0, 1]; rounded down, but at least one device when > 0.
  double storm_share = 0.25;
  // Write no DeviceTaintRules; status, Events and metrics say what would be done.
  bool dry_run = false;
  // Why nothing is written, as status says it (Enforced=False): --health-dry-run
  // by default; the cluster serving no DeviceTaintRule API otherwise.
  std::string dry_run_reason = "DryRun";
  std::string dry_run_message = "dry-run: no DeviceTaintRule is written";
  // The served DeviceTaintRule API accepts effect None (not 1.34's v1alpha3):
  // without it a report-only decision writes no rule.
  bool none_effect_served = true;
  // DeviceHealths reconciled at once. A reconcile waits on two API writes
  // (rule, then status), so with many changes in flight this bounds throughput.
  int workers = 4;
  // Pods named in status.affectedPods (the count is always complete).
  std::size_t max_affected_pods = 64;
  // The attributes a DeviceHealth's uuid and node + index targets match.
  DeviceAttributeNames attribute_names{};
  // Whether dra-controller evicts the extended-resource Pods the cluster's
  // eviction controller leaves on a NoExecute device (ExtendedResourceEvictions).
  enum class SelfEviction { kAuto, kOn, kOff };
  SelfEviction extended_resource_evictions = SelfEviction::kAuto;
  double evictions_per_second = 2;  // the eviction rate's token bucket
  int eviction_burst = 5;
};

}  // namespace dra::health
