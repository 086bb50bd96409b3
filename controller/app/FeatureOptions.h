#pragma once

#include <string>
#include <vector>

#include "controller/extended/ExtendedOptions.h"
#include "controller/health/HealthOptions.h"
#include "src/cache/WatchListMode.h"

namespace dra::app {

// The per-feature settings `run` parses from its flags and hands to the
// Controller's wiring.
struct FeatureOptions {
  health::HealthOptions health;        // --health-*
  extended::ExtendedOptions extended;  // --repair-extended-resource-mapping, leak grace
  std::vector<std::string> metrics_device_attributes;           // --metrics-device-attributes
  kube::WatchListMode watch_list = kube::WatchListMode::kAuto;  // --watch-list
};

}  // namespace dra::app
