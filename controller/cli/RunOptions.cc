#include "controller/cli/RunOptions.h"

#include <charconv>

#include "controller/app/Controller.h"
#include "controller/app/ControllerSelection.h"
#include "src/base/AsciiText.h"
#include "src/base/Duration.h"
#include "src/base/Logging.h"
#include "src/leader/LeaderElector.h"

namespace dra::cli {
namespace {

kube::Status Usage(std::string message) {
  return kube::Status(kube::StatusCode::kInvalidArgument, std::move(message));
}

// "a,b" -> {"a", "b"}; "" -> {}; an empty item is a mistake.
kube::Result<std::vector<std::string>> AudienceList(std::string_view text) {
  std::vector<std::string> audiences;
  if (text.empty()) return audiences;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = std::min(text.find(',', begin), text.size());
    auto audience = kube::AsciiText::Trim(text.substr(begin, end - begin));
    if (audience.empty()) return Usage("an empty audience in \"" + std::string(text) + "\"");
    audiences.emplace_back(audience);
    begin = end + 1;
  }
  return audiences;
}

kube::Status ParseDurationFlag(const kube::FlagSet& flags, const char* flag,
                               std::chrono::milliseconds& out) {
  auto parsed = kube::ParseDuration(flags.Get(flag));
  if (!parsed.ok()) return Usage("--" + std::string(flag) + ": " + parsed.status().message());
  if (parsed->count() <= 0) return Usage("--" + std::string(flag) + " must be greater than 0");
  out = *parsed;
  return kube::Status::Ok();
}

// The elector's own rules (client-go's), checked before anything starts; the
// names are placeholders because the namespace may come from the config.
kube::Status ValidateElectionTiming(const kube::ManagerOptions& options) {
  kube::LeaderElectionConfig election;
  election.name = election.namespace_name = election.identity = "checked-later";
  election.lease_duration = options.lease_duration;
  election.renew_deadline = options.renew_deadline;
  election.retry_period = options.retry_period;
  return kube::ValidateLeaderElectionConfig(election);
}

kube::Status ParseDurations(const kube::FlagSet& flags, kube::ManagerOptions& options) {
  struct Target {
    const char* flag;
    std::chrono::milliseconds* value;
  };
  for (Target t : {Target{"leader-elect-lease-duration", &options.lease_duration},
                   Target{"leader-elect-renew-deadline", &options.renew_deadline},
                   Target{"leader-elect-retry-period", &options.retry_period},
                   Target{"graceful-shutdown-timeout", &options.graceful_shutdown_timeout}}) {
    KUBE_RETURN_IF_ERROR(ParseDurationFlag(flags, t.flag, *t.value));
  }
  return ValidateElectionTiming(options);
}

}  // namespace

kube::Status ValidateBindAddress(const std::string& flag, const std::string& address) {
  if (address == "0") return kube::Status::Ok();
  auto colon = address.rfind(':');
  std::string host = colon == std::string::npos ? "" : address.substr(0, colon);
  std::string port = colon == std::string::npos ? "" : address.substr(colon + 1);
  int value = -1;
  auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
  bool port_ok = !port.empty() && error == std::errc() && end == port.data() + port.size() &&
                 value >= 0 && value <= 65535;
  bool host_ok = host.find(':') == std::string::npos ||
                 (host.size() > 2 && host.front() == '[' && host.back() == ']');
  if (port_ok && host_ok) return kube::Status::Ok();
  return Usage("--" + flag + " \"" + address +
               "\": want HOST:PORT, :PORT or [IPv6]:PORT with a port in 0..65535, or \"0\" to "
               "disable");
}

void RunOptions::Declare(kube::FlagSet& flags, const app::FeatureList& features) {
  DeclareOwn(flags);
  for (const auto& feature : features) feature->DeclareFlags(flags);
}

void RunOptions::DeclareOwn(kube::FlagSet& flags) {
  flags.String("kubeconfig", "",
               "Path to a kubeconfig; without it and without $KUBECONFIG the in-cluster "
               "service account is used");
  flags.String("context", "", "kubeconfig context to use (default: current-context)");
  flags.String("metrics-bind-address", ":8080",
               "Address the /metrics endpoint binds to; \"0\" disables it");
  flags.Bool("metrics-secure", false,
             "Serve /metrics over HTTPS to callers that present a bearer token the API server "
             "authenticates (TokenReview) and allows to get /metrics (SubjectAccessReview)");
  flags.String("metrics-cert-dir", "",
               "Directory with tls.crt and tls.key (a mounted kubernetes.io/tls Secret; re-read "
               "when they change) for --metrics-secure and the Alertmanager webhook; without it a "
               "self-signed certificate for the Service's names is made at start, for trying it "
               "out only");
  flags.String("service-name", "dra-controller",
               "Name of the Service in front of /metrics and the Alertmanager webhook; without "
               "--metrics-cert-dir the self-signed certificate covers its DNS names");
  flags.String("service-namespace", "",
               "Namespace of that Service (default: the service account's or kubeconfig's "
               "namespace)");
  flags.String("token-review-audiences", "",
               "Comma-separated audiences that bearer tokens on the served endpoints (/metrics "
               "with --metrics-secure, the Alertmanager webhook) must be minted for; the "
               "TokenReview asks for them. Empty: the API server's own audiences");
  flags.String("health-probe-bind-address", ":8081",
               "Address the /healthz, /livez and /readyz endpoints bind to; \"0\" disables them");
  flags.String("log-level", "info", "Log level: trace, debug, info, warn, error");
  flags.Bool("leader-elect", false,
             "Elect a leader on a coordination.k8s.io Lease before reconciling, so several "
             "replicas can run; the process exits when it loses the lease");
  flags.String("leader-election-namespace", "",
               "Namespace of the Lease (default: the service account's or kubeconfig's namespace)");
  flags.String("leader-election-id", "dra-controller", "Name of the Lease");
  flags.String("leader-elect-lease-duration", "15s", "How long a lease is valid without renewal");
  flags.String("leader-elect-renew-deadline", "10s",
               "How long the leader keeps trying to renew before it stops leading");
  flags.String("leader-elect-retry-period", "2s", "How often candidates try to acquire or renew");
  flags.String("graceful-shutdown-timeout", "30s",
               "How long SIGTERM waits for reconciles in flight before exiting anyway");
  flags.String("controllers", "*",
               "Features to run, read as kube-controller-manager reads its flag of this name: "
               "* for all, NAME to add one, -NAME to remove one (device-health, "
               "extended-resources, kubelet-health-reports, alertmanager-webhook, "
               "allocation-metrics); the kubelet's reports and the Alertmanager webhook are off "
               "without device-health. Each feature needs its own RBAC (docs/deploy.md)");
  flags.String("watch-list", "auto",
               "How informers fill their caches: auto (a streamed watch-list where the API "
               "server serves it, else paged LIST), on (watch-list only) or off (paged LIST)");
}

kube::Result<RunOptions> RunOptions::FromFlags(const kube::FlagSet& flags,
                                               app::FeatureList& features) {
  if (!flags.positional().empty()) {
    return Usage("run takes no arguments (got \"" + flags.positional()[0] + "\")");
  }
  RunOptions options;
  options.kubeconfig = flags.Get("kubeconfig");
  options.context = flags.Get("context");
  options.log_level = flags.Get("log-level");
  if (kube::Status level = kube::ValidateLogLevel(options.log_level); !level.ok()) {
    return Usage("--log-level: " + level.message());
  }
  options.manager = app::Controller::DefaultOptions();
  kube::ManagerOptions& m = options.manager;
  m.metrics_bind_address = flags.Get("metrics-bind-address");
  m.health_probe_bind_address = flags.Get("health-probe-bind-address");
  m.metrics_secure = flags.GetBool("metrics-secure");
  m.metrics_cert_dir = flags.Get("metrics-cert-dir");
  if (!m.metrics_cert_dir.empty() && !m.metrics_secure) {
    return Usage("--metrics-cert-dir needs --metrics-secure");
  }
  m.service_name = flags.Get("service-name");
  m.service_namespace = flags.Get("service-namespace");
  auto audiences = AudienceList(flags.Get("token-review-audiences"));
  if (!audiences.ok()) return Usage("--token-review-audiences: " + audiences.status().message());
  m.token_review_audiences = std::move(*audiences);
  for (const char* flag : {"metrics-bind-address", "health-probe-bind-address"}) {
    KUBE_RETURN_IF_ERROR(ValidateBindAddress(flag, flags.Get(flag)));
  }
  m.leader_elect = flags.GetBool("leader-elect");
  m.leader_election_namespace = flags.Get("leader-election-namespace");
  m.leader_election_id = flags.Get("leader-election-id");
  if (m.leader_elect && m.leader_election_id.empty()) {
    return Usage("--leader-election-id must not be empty with --leader-elect");
  }
  KUBE_RETURN_IF_ERROR(ParseDurations(flags, m));
  auto watch_list = kube::ParseWatchListMode(flags.Get("watch-list"));
  if (!watch_list.ok()) return Usage("--watch-list " + watch_list.status().message());
  options.watch_list = *watch_list;
  for (const auto& feature : features) KUBE_RETURN_IF_ERROR(feature->ParseFlags(flags));
  auto selection = app::ControllerSelection::Parse(flags.Get("controllers"), features);
  if (!selection.ok()) return selection.status();
  selection->Filter(features);
  options.features_off = selection->reasons();
  options.features_not_selected = selection->off();
  return options;
}

}  // namespace dra::cli
