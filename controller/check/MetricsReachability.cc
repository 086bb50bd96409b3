#include "controller/check/MetricsReachability.h"

#include <cctype>

#include "src/base/NlohmannFields.h"
#include "src/config/InClusterConfig.h"
#include "src/http/HttpTransport.h"

namespace dra::check {
namespace {

constexpr const char* kName = "controller-metrics";

constexpr auto* At = &kube::NlohmannFields::At;

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

// A path segment: every byte but RFC 3986's unreserved ones as %XX.
std::string PercentEncoded(const std::string& segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : segment) {
    if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The controller answered: 200, or 401/403 to a caller without a credential.
bool Answered(const MetricsAnswer& a) {
  return a.status == 200 || a.status == 401 || a.status == 403;
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

MetricsAnswer MetricsReachability::Scrape(const std::string& address) {
  MetricsAnswer answer{address, 0, ""};
  // Made from nothing but the address, so that no credential can reach it.
  kube::RestConfig target;
  target.server = "https://" + address;
  target.insecure_skip_tls_verify = true;  // nothing secret is sent
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
  if (!kube::InClusterConfig::Available() || !kube::InClusterConfig::Load().ok()) {
    MetricsProbe probe;
    probe.service = namespace_name + "/" + kService;
    return probe;
  }
  return ProbeEndpoints(client, namespace_name);
}

MetricsProbe MetricsReachability::ProbeEndpoints(kube::RestClient& client,
                                                 const std::string& namespace_name) {
  MetricsProbe probe;
  probe.service = namespace_name + "/" + kService;
  probe.in_cluster = true;
  auto slices =
      client.Get("/apis/discovery.k8s.io/v1/namespaces/" + PercentEncoded(namespace_name) +
                 "/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3D" + kService);
  if (!slices.ok()) {
    probe.error = slices.status().message();
    return probe;
  }
  probe.service_missing = At(*slices, "items").empty();
  for (const auto& address : ReadyAddresses(*slices, kPort)) {
    probe.answers.push_back(Scrape(address));
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
  size_t answered = 0;
  for (const auto& a : probe.answers) {
    all += (all.empty() ? "" : ", ") + Describe(a);
    answered += Answered(a) ? 1 : 0;
  }
  std::string counts = std::to_string(answered) + "/" + std::to_string(probe.answers.size()) +
                       " endpoints of " + probe.service + " answered /metrics: " + all;
  if (answered == probe.answers.size()) return CheckResult::Pass(kName, counts);
  return CheckResult::Fail(kName, counts);
}

}  // namespace dra::check
