#pragma once

#include <memory>
#include <string_view>

#include "controller/feature/Feature.h"
#include "controller/health/HealthOptions.h"
#include "controller/health/HealthWiring.h"

namespace dra::health {

// Device health as a `run` feature: the --health-* flags, and DeviceHealth ->
// DeviceTaintRule reconciling (HealthWiring) where the cluster serves both.
// Publishes the Unhealthy devices for the allocation metrics.
class HealthFeature : public feature::Feature {
 public:
  std::string_view Name() const override { return "device-health"; }
  void DeclareFlags(kube::FlagSet& flags) override;
  kube::Status ParseFlags(const kube::FlagSet& flags) override;
  kube::Status Wire(feature::FeatureContext& context) override;

  const HealthOptions& options() const { return options_; }

 private:
  void PublishUnhealthyDevices(feature::FeatureContext& context);
  void ReportState(feature::FeatureStates& states, const HealthOptions& options);

  HealthOptions options_;
  std::unique_ptr<HealthWiring> wiring_;  // null while off
};

}  // namespace dra::health
