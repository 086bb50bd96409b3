#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "src/base/Backoff.h"
#include "src/base/Clock.h"
#include "src/base/Result.h"
#include "src/config/RestConfig.h"
#include "src/http/HttpTransport.h"

namespace kube {

using TransportFactory =
    std::function<Result<std::unique_ptr<HttpTransport>>(const RestConfig& config)>;

// How a Manager runs; the flag names of controller-runtime's manager.Options.
struct ManagerOptions {
  std::string metrics_bind_address = ":8080";       // "0" disables /metrics
  std::string health_probe_bind_address = ":8081";  // "0" disables /healthz and /readyz
  // controller-runtime's secure serving: /metrics over HTTPS, and each request
  // authenticated with a TokenReview and authorized with a SubjectAccessReview
  // (verb "get" on the non-resource URL "/metrics").
  bool metrics_secure = false;
  // tls.crt and tls.key for the metrics server; empty: a self-signed
  // certificate generated in memory at start.
  std::string metrics_cert_dir;
  // The Service in front of the served endpoints. Without metrics_cert_dir
  // the self-signed certificate names it as clients in the cluster dial it
  // (NAME, NAME.NS, NAME.NS.svc, NAME.NS.svc.cluster.local) besides localhost.
  // Empty name: localhost only; empty namespace: the configuration's.
  std::string service_name;
  std::string service_namespace;
  // Audiences the TokenReviews of served endpoints (/metrics, and any
  // authorizer from Manager::NewAuthorizer) ask for: a token minted for
  // none of them is rejected. Empty: the API server's own audiences.
  std::vector<std::string> token_review_audiences;
  bool leader_elect = false;
  std::string leader_election_namespace;  // default: the configuration's namespace
  std::string leader_election_id;         // the Lease's name; required with leader_elect
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
  // How long Stop() waits for runnables to finish their work in flight.
  std::chrono::milliseconds graceful_shutdown_timeout{30000};
  // Group-versions to discover before wiring ("v1", "resource.k8s.io/v1");
  // the Manager keeps retrying until every `required` one is served.
  std::vector<std::string> discover;
  std::set<std::string> required;
  BackoffOptions connect_backoff;
  std::shared_ptr<Clock> clock;        // null: RealClock
  TransportFactory transport_factory;  // null: HttpTransport::Create (tests inject fakes)
  std::string user_agent;              // overrides the RestConfig's when set
  // Called (from another thread) when leadership is lost; the process must exit.
  std::function<void()> on_leadership_lost;
  // Called (from another thread) when the wiring callback failed: nothing will
  // be reconciled, so the process should exit with the error it was given.
  std::function<void(const Status&)> on_wiring_failed;
};

}  // namespace kube
