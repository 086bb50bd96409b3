#include "tests/support/ServiceMonitorScrapeConfig.h"

#include <fstream>

namespace dra::testing {

using nlohmann::json;

std::string ServiceMonitorScrapeConfig::Gaps(const json& endpoint) {
  std::string gaps;
  if (endpoint.value("scheme", "") != "https") gaps += " scheme is not https;";
  const json tls = endpoint.value("tlsConfig", json::object());
  if (tls.value("insecureSkipVerify", false)) gaps += " tlsConfig.insecureSkipVerify is set;";
  if (tls.value("/ca/secret/name"_json_pointer, std::string()).empty() ||
      tls.value("/ca/secret/key"_json_pointer, std::string()).empty()) {
    gaps += " no tlsConfig.ca.secret;";
  }
  if (tls.value("serverName", "").empty()) gaps += " no tlsConfig.serverName;";
  const json auth = endpoint.value("authorization", json::object());
  if (auth.value("/credentials/name"_json_pointer, std::string()).empty() ||
      auth.value("/credentials/key"_json_pointer, std::string()).empty()) {
    gaps += " no authorization.credentials;";
  }
  return gaps;
}

kube::Result<json> ServiceMonitorScrapeConfig::Translate(const json& monitor,
                                                         const std::string& target,
                                                         const std::string& assets_dir,
                                                         const SecretReader& read_secret) {
  const std::string ns = monitor.value("/metadata/namespace"_json_pointer, std::string());
  const std::string name = monitor.value("/metadata/name"_json_pointer, std::string());
  const json endpoint = monitor.value("/spec/endpoints/0"_json_pointer, json());
  if (!endpoint.is_object()) {
    return kube::Status(kube::StatusCode::kInvalid, "ServiceMonitor " + name + " has no endpoint");
  }
  if (std::string gaps = Gaps(endpoint); !gaps.empty()) {
    return kube::Status(kube::StatusCode::kInvalid,
                        "ServiceMonitor " + ns + "/" + name + " scrapes unverified:" + gaps);
  }
  const json& tls = endpoint["tlsConfig"];
  const json& ca = tls["ca"]["secret"];
  auto ca_pem = read_secret(ns, ca["name"], ca["key"]);
  if (!ca_pem.ok()) return ca_pem.status();
  const json& credentials = endpoint["authorization"]["credentials"];
  auto token = read_secret(ns, credentials["name"], credentials["key"]);
  if (!token.ok()) return token.status();
  if (token->empty()) {
    return kube::Status(kube::StatusCode::kInvalid,
                        "Secret " + credentials["name"].get<std::string>() + " holds no token");
  }
  std::string ca_file = assets_dir + "/secret_" + ns + "_" + ca["name"].get<std::string>() + "_" +
                        ca["key"].get<std::string>();
  std::ofstream(ca_file) << *ca_pem;

  json scrape = {
      {"job_name", "serviceMonitor/" + ns + "/" + name + "/0"},
      {"static_configs", json::array({{{"targets", json::array({target})}}})},
      {"scheme", endpoint["scheme"]},
      {"tls_config", {{"ca_file", ca_file}, {"server_name", tls["serverName"]}}},
      {"authorization",
       {{"type", endpoint["authorization"].value("type", "Bearer")}, {"credentials", *token}}}};
  if (endpoint.contains("interval")) scrape["scrape_interval"] = endpoint["interval"];
  if (endpoint.contains("path")) scrape["metrics_path"] = endpoint["path"];
  return scrape;
}

}  // namespace dra::testing
