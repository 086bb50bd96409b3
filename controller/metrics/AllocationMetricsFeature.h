#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "controller/feature/Feature.h"
#include "controller/metrics/AllocationMetricsWiring.h"

namespace dra::metrics {

// Allocation metrics as a `run` feature: --metrics-device-attributes, and the
// rendered families (AllocationMetricsWiring) whenever /metrics is served.
// Reads the Unhealthy devices device health publishes, so it is registered
// after it.
class AllocationMetricsFeature : public feature::Feature {
 public:
  std::string_view Name() const override { return "allocation-metrics"; }
  void DeclareFlags(kube::FlagSet& flags) override;
  kube::Status ParseFlags(const kube::FlagSet& flags) override;
  kube::Status Wire(feature::FeatureContext& context) override;

  const std::vector<std::string>& device_attributes() const { return device_attributes_; }

 private:
  std::vector<std::string> device_attributes_;
  std::unique_ptr<AllocationMetricsWiring> wiring_;
};

}  // namespace dra::metrics
