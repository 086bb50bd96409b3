#pragma once

#include <string>
#include <string_view>

#include "controller/feature/FeatureContext.h"
#include "controller/health/HealthOptions.h"
#include "src/base/Status.h"

namespace dra::health {

// Whether, and then how, dra-controller evicts extended-resource Pods itself
// (ExtendedResourcePodEvictor): --health-extended-resource-evictions=auto
// does it where the cluster's version leaves them running
// (DraReleases::EvictsExtendedResourcePods), on and off decide for it.
class ExtendedResourceEvictions {
 public:
  struct Decision {
    bool evict = false;
    std::string why;  // the one log line saying so
  };
  static Decision Decide(HealthOptions::SelfEviction mode, std::string_view server_version);
  // Adds the leader-only "extended-resource-evictions" controller when the
  // decision says so and device health writes DeviceTaintRules.
  static kube::Status Wire(feature::FeatureContext& context, const HealthOptions& options);
};

}  // namespace dra::health
