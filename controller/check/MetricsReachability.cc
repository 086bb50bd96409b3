#include "controller/check/MetricsReachability.h"

#include "src/config/InClusterConfig.h"
#include "src/http/HttpTransport.h"

namespace dra::check {
namespace {

constexpr const char* kName = "controller-metrics";

const nlohmann::json& At(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

// An endpoint counts unless its conditions say it is not ready.
bool Ready(const nlohmann::json& endpoint) {
  const auto& ready = At(At(endpoint, "conditions"), "ready");
  return !ready.is_boolean() || ready.get<bool>();
}

int PortNumber(const nlohmann::json& slice, const std::string& port_name) {
  for (const auto& port : At(slice, "ports")) {
    const auto& name = At(port, "name");
    const auto& number = At(port, "port");
    if (name.is_string() && name.get<std::string>() == port_name && number.is_number_integer()) {
      return number.get<int>();
    }
  }
  return 0;
}

std::string Describe(const MetricsAnswer& a) {
  return a.address + " " +
         (a.status == 0 ? "unreachable (" + a.error + ")" : std::to_string(a.status));
}

}  // namespace

std::vector<std::string> MetricsReachability::ReadyAddresses(const nlohmann::json& slices,
                                                             const std::string& port_name) {
  std::vector<std::string> out;
  for (const auto& slice : At(slices, "items")) {
    int port = PortNumber(slice, port_name);
    if (port == 0) continue;
    bool ipv6 = At(slice, "addressType") == "IPv6";
    for (const auto& endpoint : At(slice, "endpoints")) {
      const auto& addresses = At(endpoint, "addresses");
      if (!Ready(endpoint) || !addresses.is_array() || addresses.empty() ||
          !addresses[0].is_string()) {
        continue;
      }
      std::string ip = addresses[0].get<std::string>();
      out.push_back((ipv6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port));
    }
  }
  return out;
}

MetricsAnswer MetricsReachability::Scrape(const kube::RestConfig& config,
                                          const std::string& address) {
  MetricsAnswer answer{address, 0, ""};
  kube::RestConfig target = config;
  target.server = "https://" + address;
  target.ca_pem.clear();
  target.insecure_skip_tls_verify = true;  // the controller's certificate is self-signed
  target.request_timeout = std::chrono::seconds(5);
  auto transport = kube::HttpTransport::Create(target);
  if (!transport.ok()) {
    answer.error = transport.status().message();
    return answer;
  }
  kube::HttpRequest request;
  request.path = "/metrics";
  auto reply = (*transport)->Send(request);
  if (!reply.ok()) {
    answer.error = reply.status().message();
    return answer;
  }
  answer.status = reply->status;
  return answer;
}

MetricsProbe MetricsReachability::Probe(kube::RestClient& client,
                                        const std::string& namespace_name) {
  MetricsProbe probe;
  probe.service = namespace_name + "/" + kService;
  if (!kube::InClusterConfig::Available()) return probe;
  auto config = kube::InClusterConfig::Load();
  if (!config.ok()) return probe;
  probe.in_cluster = true;
  auto slices =
      client.Get("/apis/discovery.k8s.io/v1/namespaces/" + namespace_name +
                 "/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3D" + kService);
  if (!slices.ok()) {
    probe.error = slices.status().message();
    return probe;
  }
  probe.service_missing = At(*slices, "items").empty();
  for (const auto& address : ReadyAddresses(*slices, kPort)) {
    probe.answers.push_back(Scrape(*config, address));
  }
  return probe;
}

CheckResult MetricsReachability::Judge(const MetricsProbe& probe) {
  if (!probe.in_cluster) {
    return CheckResult::Warn(kName, "skipped (not in-cluster): run check in a Pod to reach " +
                                        probe.service + " port " + kPort);
  }
  if (!probe.error.empty()) {
    return CheckResult::Fail(
        kName, "cannot read the EndpointSlices of " + probe.service + ": " + probe.error);
  }
  if (probe.service_missing) {
    return CheckResult::Fail(kName, "no EndpointSlice for Service " + probe.service);
  }
  if (probe.answers.empty()) {
    return CheckResult::Fail(
        kName, "Service " + probe.service + " has no ready endpoint on port " + kPort);
  }
  std::string all;
  int served = 0;
  int unauthorized = 0;
  for (const auto& a : probe.answers) {
    all += (all.empty() ? "" : ", ") + Describe(a);
    served += a.status == 200 ? 1 : 0;
    unauthorized += a.status == 401 || a.status == 403 ? 1 : 0;
  }
  std::string counts = std::to_string(served) + "/" + std::to_string(probe.answers.size()) +
                       " endpoints of " + probe.service + " served /metrics: " + all;
  if (served == static_cast<int>(probe.answers.size())) return CheckResult::Pass(kName, counts);
  if (served + unauthorized == static_cast<int>(probe.answers.size())) {
    return CheckResult::Warn(kName,
                             counts +
                                 "; reachable, but this service account may not get "
                                 "/metrics (bind ClusterRole dra-controller-metrics-reader)");
  }
  return CheckResult::Fail(kName, counts);
}

}  // namespace dra::check
