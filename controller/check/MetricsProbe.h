#pragma once

#include <string>
#include <vector>

namespace dra::check {

// One ready endpoint of the controller's metrics Service and how GET /metrics
// over HTTPS went.
struct MetricsAnswer {
  std::string address;  // "10.0.0.7:8443"
  int status = 0;       // HTTP status; 0 when nothing answered
  std::string error;    // why nothing answered
};

// The controller's /metrics as seen from where `check` runs. Only probed
// in-cluster: outside, Pod IPs are usually not routable.
struct MetricsProbe {
  bool in_cluster = false;
  std::string service;           // "<namespace>/<name>"
  bool service_missing = false;  // no EndpointSlice names the Service
  std::string error;             // the EndpointSlices could not be read
  std::vector<MetricsAnswer> answers;
};

}  // namespace dra::check
