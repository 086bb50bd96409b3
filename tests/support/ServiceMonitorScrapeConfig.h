#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "src/base/Result.h"

namespace dra::testing {

// A ServiceMonitor endpoint as the Prometheus scrape_config the Prometheus
// Operator generates for it (pkg/prometheus/promcfg.go), for the fields the
// shipped ServiceMonitor uses: job_name serviceMonitor/<ns>/<name>/<i>,
// interval -> scrape_interval, path -> metrics_path, scheme; tlsConfig.ca's
// Secret key written to a file -> tls_config.ca_file (the Operator's
// non-inline mode), serverName -> tls_config.server_name; authorization.type
// (default Bearer) and the value of credentials' Secret key, inlined ->
// authorization.credentials. Secrets are read in the ServiceMonitor's
// namespace, as the Operator reads them. Service discovery (role endpoints
// and the port relabeling) becomes one static target.
class ServiceMonitorScrapeConfig {
 public:
  // The value of `key` in Secret `name` of namespace `ns`.
  using SecretReader = std::function<kube::Result<std::string>(
      const std::string& ns, const std::string& name, const std::string& key)>;

  // The scrape_config of endpoint 0 of `monitor` scraping `target`; CA files
  // go to `assets_dir`. An endpoint that would scrape without verifying the
  // certificate or without a token (no https, no CA Secret, no serverName,
  // no credentials Secret, insecureSkipVerify) is an error naming each gap.
  static kube::Result<nlohmann::json> Translate(const nlohmann::json& monitor,
                                                const std::string& target,
                                                const std::string& assets_dir,
                                                const SecretReader& read_secret);

 private:
  static std::string Gaps(const nlohmann::json& endpoint);
};

}  // namespace dra::testing
