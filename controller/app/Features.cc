#include "controller/app/Features.h"

#include "controller/alerts/AlertsFeature.h"
#include "controller/extended/ExtendedFeature.h"
#include "controller/health/HealthFeature.h"
#include "controller/kubelet/KubeletFeature.h"
#include "controller/metrics/AllocationMetricsFeature.h"

namespace dra::app {

FeatureList AllFeatures() {
  FeatureList features;
  features.push_back(std::make_unique<health::HealthFeature>());
  features.push_back(std::make_unique<extended::ExtendedFeature>());
  features.push_back(std::make_unique<kubelet::KubeletFeature>());
  features.push_back(std::make_unique<alerts::AlertsFeature>());
  // After device health: it reads the Unhealthy devices health publishes.
  features.push_back(std::make_unique<metrics::AllocationMetricsFeature>());
  return features;
}

}  // namespace dra::app
