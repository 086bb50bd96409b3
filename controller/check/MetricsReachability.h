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
// https-metrics); outside a cluster the row is skipped. The GET carries no
// credential: whoever can write an address into those EndpointSlices would
// receive it, and the controller's answer without one (401) already proves
// that it serves there.
class MetricsReachability {
 public:
  static constexpr const char* kService = "dra-controller";
  static constexpr const char* kPort = "https-metrics";

  // Probes when in-cluster; otherwise returns a probe with in_cluster false.
  static MetricsProbe Probe(kube::RestClient& client, const std::string& namespace_name);
  // Reads the Service's EndpointSlices through `client` and scrapes every
  // ready endpoint, whatever the environment.
  static MetricsProbe ProbeEndpoints(kube::RestClient& client, const std::string& namespace_name);
  // GET https://<address>/metrics without a credential, the certificate
  // unverified (the controller's is self-signed), within 5 s.
  static MetricsAnswer Scrape(const std::string& address);
  // The check row: pass when every endpoint answered /metrics (200, or 401
  // or 403 to a caller without a credential), warn when skipped, fail
  // otherwise.
  static CheckResult Judge(const MetricsProbe& probe);
  // "ip:port" of each ready endpoint's `port_name` in an EndpointSliceList.
  static std::vector<std::string> ReadyAddresses(const nlohmann::json& slices,
                                                 const std::string& port_name);
};

}  // namespace dra::check
