#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/check/CheckResult.h"
#include "controller/check/MetricsProbe.h"
#include "src/client/RestClient.h"
#include "src/config/RestConfig.h"

namespace dra::check {

// "The controller's metrics reachable when run in-cluster": with
// KUBERNETES_SERVICE_HOST set and a mounted service account, GET /metrics on
// every ready endpoint of the metrics Service (EndpointSlices, port
// https-metrics) with the Pod's token; outside a cluster the row is skipped.
class MetricsReachability {
 public:
  static constexpr const char* kService = "dra-controller";
  static constexpr const char* kPort = "https-metrics";

  // Probes when in-cluster; otherwise returns a probe with in_cluster false.
  static MetricsProbe Probe(kube::RestClient& client, const std::string& namespace_name);
  // The check row: pass when every endpoint served /metrics, warn when skipped
  // or answered 401/403 (reachable, caller not authorized), fail otherwise.
  static CheckResult Judge(const MetricsProbe& probe);
  // "ip:port" of each ready endpoint's `port_name` in an EndpointSliceList.
  static std::vector<std::string> ReadyAddresses(const nlohmann::json& slices,
                                                 const std::string& port_name);

 private:
  static MetricsAnswer Scrape(const kube::RestConfig& config, const std::string& address);
};

}  // namespace dra::check
