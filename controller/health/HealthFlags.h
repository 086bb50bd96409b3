#pragma once

#include "controller/health/HealthOptions.h"
#include "src/base/Result.h"
#include "src/flags/FlagSet.h"

namespace dra::health {

// run's --health-* flags:
//   --health-dry-run                  write no DeviceTaintRules (default false)
//   --health-preview DURATION         effect None first for Unhealthy (default 30s; 0 disables)
//   --health-hold-off DURATION        taint kept after recovery (default 5m; 0 disables)
//   --health-storm-guard-percent N    most devices of a pool / driver under NoExecute (default 25)
//   --health-extended-resource-evictions auto|on|off  evict extended-resource Pods
//                                     where the cluster does not (default auto)
//   --device-uuid-attribute LIST      attribute spec.uuid matches (default uuid)
//   --device-index-attribute LIST     attribute spec.node + spec.index match (default index)
class HealthFlags {
 public:
  static void Declare(kube::FlagSet& flags);
  // An error is a usage error naming the flag.
  static kube::Result<HealthOptions> Parse(const kube::FlagSet& flags);
};

}  // namespace dra::health
