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
  // Its name in dra_controller_feature_enabled.
  static constexpr std::string_view kFeature = "extended-resource-evictions";

  struct Decision {
    bool evict = false;
    std::string why;     // the one log line saying so
    std::string reason;  // one CamelCase word: TurnedOn, ClusterEvicts, ...
  };
  static Decision Decide(HealthOptions::SelfEviction mode, std::string_view server_version);
  // Adds the leader-only "extended-resource-evictions" controller when the
  // decision says so and device health writes DeviceTaintRules.
  static kube::Status Wire(feature::FeatureContext& context, const HealthOptions& options);
};

}  // namespace dra::health
