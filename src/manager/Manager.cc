#include "src/manager/Manager.h"

#include <prometheus/text_serializer.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>
#include <optional>

#include "src/auth/RequestAuthorizer.h"
#include "src/base/LogThrottle.h"
#include "src/base/RealClock.h"
#include "src/manager/FunctionRunnable.h"
#include "src/manager/ServingTlsSource.h"

namespace kube {
namespace {

// How long the startup loop waits for the informers at a time before it
// looks again at what may start (a runnable whose own caches synced while
// another informer still fails).
constexpr std::chrono::milliseconds kSyncPoll{200};
// When the log first names runnables still waiting for a cache, then how
// often again.
constexpr std::chrono::seconds kFirstWaitReport{5};
constexpr std::chrono::seconds kWaitReportInterval{30};
// How long past its deadline a stuck leader election is tolerated before
// /healthz fails; kube-controller-manager gives client-go's healthz adaptor
// 20 s.
constexpr std::chrono::seconds kLeaderElectionTolerance{20};
// Readiness follows the caches' freshness: a healthy reflector succeeds at
// least once a bookmark interval (1 min); a dead watch is cut after three
// (kBookmarkedWatchIdleTimeout) and re-established within a backoff
// (<= 2 x 30 s). Five minutes without any successful LIST or WATCH means the
// caches no longer follow the API server.
constexpr std::chrono::minutes kCacheStaleAfter{5};

Status NotYet(const std::string& what) { return Status(StatusCode::kUnavailable, what); }

// Each review (TokenReview, then SubjectAccessReview) must end well within a
// scraper's timeout (Prometheus: 10 s).
constexpr std::chrono::milliseconds kMetricsReviewTimeout{4000};

// How often a failed or refused review is logged at most.
constexpr std::chrono::seconds kReviewFailureLogInterval{10};

std::shared_ptr<RequestAuthorizer> AuthorizerFor(const std::shared_ptr<RestClient>& client,
                                                 const ManagerOptions& options) {
  return std::make_shared<RequestAuthorizer>(
      std::make_shared<TokenReviewer>(client, options.token_review_audiences),
      std::make_shared<AccessReviewer>(client));
}

// /metrics itself only: a path under it would be a new authorization
// question per request (and nothing is served there).
EndpointServer::Route MetricsRoute(EndpointServer::RequestHandler handler) {
  EndpointServer::Route route;
  route.handler = std::move(handler);
  route.exact = true;
  return route;
}

// /metrics over HTTPS for callers the API server authenticates and allows to
// "get" the path, as controller-runtime's WithAuthenticationAndAuthorization.
Result<std::unique_ptr<EndpointServer>> StartSecureMetrics(
    const ManagerOptions& options, const ServingTlsSource& certificate,
    const std::shared_ptr<RestClient>& client, const EndpointServer::Handler& scrape) {
  auto tls = certificate.Get();
  if (!tls.ok()) return tls.status().WithContext("metrics");
  auto authorizer = AuthorizerFor(client, options);
  auto failures = std::make_shared<LogThrottle>(kReviewFailureLogInterval);
  auto guarded = [authorizer, scrape, failures](const EndpointServer::Request& request) {
    Status verdict =
        authorizer->Authorize(request.method, request.path, request.authorization, request.peer);
    if (verdict.ok()) return scrape();
    int status = RequestAuthorizer::HttpStatusFor(verdict);
    if (status == 500 || status == 429) {
      if (auto suppressed = failures->Admit()) {
        spdlog::warn("metrics request not authorized: {} ({} more not logged)", verdict.ToString(),
                     *suppressed);
      }
    }
    return EndpointServer::Reply{status, verdict.message() + "\n"};
  };
  return EndpointServer::StartRoutes(options.metrics_bind_address,
                                     {{"/metrics", MetricsRoute(guarded)}}, *tls);
}

long long Millis(Clock::Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

Manager::Manager(RestConfig config, ManagerOptions options)
    : config_(std::move(config)),
      options_(std::move(options)),
      clock_(options_.clock ? options_.clock : RealClock::Shared()),
      registry_(std::make_shared<prometheus::Registry>()),
      exposition_sources_(std::make_shared<ExpositionSources>()),
      serving_tls_(std::make_unique<ServingTlsSource>(
          options_.metrics_cert_dir,
          ServingTlsSource::ServiceNames(options_.service_name, options_.service_namespace.empty()
                                                                    ? config_.namespace_name
                                                                    : options_.service_namespace))),
      startup_(clock_) {
  if (!options_.user_agent.empty()) config_.user_agent = options_.user_agent;
  health_checks_.Add("ping", [] { return Status::Ok(); });
  health_checks_.Add("leader-election", [this] { return CheckLeaderElection(); });
  health_checks_.Add("informers", [this] {
    return informers_started_ ? informers_->CheckProgress() : Status::Ok();
  });
  ready_checks_.Add("api-server", [this] {
    return connected_ ? Status::Ok() : NotYet("not connected to the API server yet");
  });
  ready_checks_.Add("informers-synced", [this] {
    if (!informers_started_) return NotYet("informer caches have not synced yet");
    if (!synced_) return informers_->CheckSynced();
    return informers_->CheckFreshness(kCacheStaleAfter);
  });
  // A watch that delivers bytes but no events leaves the cache behind while
  // the loop looks busy: reported before the reflector cuts it.
  ready_checks_.Add("informers-watching", [this] {
    return informers_started_ ? informers_->CheckWatchProgress() : Status::Ok();
  });
}

// Fails when this process leads but its lease was not renewed for longer than
// renew_deadline + tolerance (the elector should have stepped down by then),
// or when the elector's loop has not begun or finished an attempt for longer
// than lease_duration + tolerance (its longest legitimate gap is a jittered
// retry period plus two requests, each within the retry period).
Status Manager::CheckLeaderElection() const {
  if (!election_started_) return Status::Ok();
  auto now = clock_->Now();
  auto renewed = elector_->LastRenewal();
  if (renewed && now - *renewed > options_.renew_deadline + kLeaderElectionTolerance) {
    return Status(StatusCode::kUnavailable,
                  "leading, but the lease was last renewed " +
                      std::to_string(Millis(now - *renewed)) + " ms ago (renew deadline " +
                      std::to_string(options_.renew_deadline.count()) + " ms)");
  }
  auto quiet = now - elector_->LoopHeartbeat();
  if (elector_->LoopRunning() && quiet > options_.lease_duration + kLeaderElectionTolerance) {
    return Status(StatusCode::kUnavailable, "the leader election loop made no progress for " +
                                                std::to_string(Millis(quiet)) + " ms");
  }
  return Status::Ok();
}

Manager::~Manager() {
  (void)Stop();
  // Writers that outlived the drain deadline may still act as leader: never
  // release the lease under them (the elector's destructor would).
  if (abandoned_) (void)elector_.release();
}

void Manager::SetWiring(Wiring wiring) { wiring_ = std::move(wiring); }

void Manager::AddHealthCheck(std::string name, CheckSet::Check check) {
  health_checks_.Add(std::move(name), std::move(check));
}

void Manager::AddReadyCheck(std::string name, CheckSet::Check check) {
  ready_checks_.Add(std::move(name), std::move(check));
}

Result<ManagedController*> Manager::AddController(ManagedControllerOptions options,
                                                  std::shared_ptr<Reconciler> reconciler) {
  auto controller =
      ManagedController::Create(std::move(options), std::move(reconciler), registry_, clock_);
  if (!controller.ok()) return controller.status();
  ManagedController* raw = controller->get();
  Add(std::move(*controller));
  return raw;
}

void Manager::AddExpositionSource(std::string name, ExpositionSources::Source source) {
  exposition_sources_->Add(std::move(name), std::move(source));
}

void Manager::Add(std::unique_ptr<Runnable> runnable) {
  std::lock_guard lock(mu_);
  runnables_.push_back(std::move(runnable));
}

std::shared_ptr<EventRecorder> Manager::Recorder(const std::string& component) {
  std::shared_ptr<EventRecorder> recorder;
  {
    std::lock_guard lock(mu_);
    auto& slot = recorders_[component];
    if (slot) return slot;
    EventRecorderOptions options;
    options.clock = clock_;
    options.registry = registry_;
    slot = recorder = std::make_shared<EventRecorder>(client_, component, options);
  }
  Add(std::make_unique<FunctionRunnable>(
      "events-" + component, true, [recorder] { return recorder->Start(); },
      [recorder] { recorder->Stop(); }, std::vector<InformerDependency>{}));  // reads no cache
  return recorder;
}

bool Manager::leading() const { return elector_ ? elector_->IsLeader() : true; }

Result<std::shared_ptr<RestClient>> Manager::NewClient(const RestConfig& config,
                                                       int max_retries) const {
  auto transport = options_.transport_factory ? options_.transport_factory(config)
                                              : HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  RestClientOptions client_options;
  client_options.metrics = rest_metrics_.get();
  client_options.max_retries = max_retries;
  client_options.clock = clock_;
  return std::make_shared<RestClient>(std::shared_ptr<HttpTransport>(std::move(*transport)),
                                      client_options);
}

Status Manager::Start() {
  if (options_.leader_elect && options_.leader_election_id.empty()) {
    return Status(StatusCode::kInvalidArgument, "leader election needs a lease name");
  }
  rest_metrics_ = std::make_unique<RestClientMetrics>(registry_, config_.server);
  auto client = NewClient(config_, RestClientOptions{}.max_retries);
  if (!client.ok()) return client.status();
  client_ = std::move(*client);
  informers_ = std::make_unique<InformerRegistry>(client_, registry_, clock_);
  KUBE_RETURN_IF_ERROR(StartServers());
  if (options_.leader_elect) {
    KUBE_RETURN_IF_ERROR(StartLeaderElection());
    election_started_ = true;
  } else {
    leading_now_ = true;
  }
  startup_.Start([this] { RunStartup(); });
  return Status::Ok();
}

Result<EndpointServer::TlsOptions> Manager::ServingTls() const { return serving_tls_->Get(); }

Result<std::shared_ptr<RequestAuthorizer>> Manager::NewAuthorizer() const {
  RestConfig review_config = config_;
  review_config.request_timeout = std::min(config_.request_timeout, kMetricsReviewTimeout);
  auto client = NewClient(review_config, 0);
  if (!client.ok()) return client.status().WithContext("review client");
  return AuthorizerFor(*client, options_);
}

EndpointServer::Reply Manager::Probe(const CheckSet& checks, bool verbose) const {
  CheckSet::Verdict verdict = checks.Evaluate(verbose);
  return EndpointServer::Reply{verdict.ok ? 200 : 503, verdict.body};
}

Status Manager::StartServers() {
  if (options_.health_probe_bind_address != "0") {
    auto health =
        EndpointServer::Start(options_.health_probe_bind_address,
                              {{"/healthz", [this] { return Probe(health_checks_, false); }},
                               {"/readyz", [this] { return Probe(ready_checks_, false); }},
                               {"/livez", [this] { return Probe(health_checks_, false); }}});
    if (!health.ok()) return health.status().WithContext("--health-probe-bind-address");
    health_ = std::move(*health);
    spdlog::info("serving probes on {} (/healthz, /readyz) port={}",
                 options_.health_probe_bind_address, health_->port());
  }
  if (options_.metrics_bind_address != "0") {
    auto registry = registry_;
    auto sources = exposition_sources_;
    auto scrape = [registry, sources] {
      // The sources' cached texts (tens of MB on a large fleet) are written
      // from their shared buffers, not copied into the reply.
      return EndpointServer::Reply{200, prometheus::TextSerializer().Serialize(registry->Collect()),
                                   "text/plain; version=0.0.4; charset=utf-8", sources->Texts()};
    };
    RestConfig review_config = config_;
    review_config.request_timeout = std::min(config_.request_timeout, kMetricsReviewTimeout);
    auto review_client = options_.metrics_secure ? NewClient(review_config, 0)
                                                 : Result<std::shared_ptr<RestClient>>(nullptr);
    if (!review_client.ok()) return review_client.status().WithContext("metrics review client");
    auto metrics =
        options_.metrics_secure
            ? StartSecureMetrics(options_, *serving_tls_, *review_client, scrape)
            : EndpointServer::StartRoutes(
                  options_.metrics_bind_address,
                  {{"/metrics",
                    MetricsRoute([scrape](const EndpointServer::Request&) { return scrape(); })}},
                  std::nullopt);
    if (!metrics.ok()) return metrics.status().WithContext("--metrics-bind-address");
    metrics_ = std::move(*metrics);
    spdlog::info("serving metrics on {} (/metrics{}) port={}", options_.metrics_bind_address,
                 options_.metrics_secure ? ", HTTPS, authenticated and authorized" : "",
                 metrics_->port());
  }
  return Status::Ok();
}

std::string Manager::OwnNamespace() const {
  return options_.leader_election_namespace.empty() ? config_.namespace_name
                                                    : options_.leader_election_namespace;
}

Status Manager::StartLeaderElection() {
  // Lease requests must end before the renew deadline can pass: no retries,
  // and a timeout of one retry period.
  RestConfig election_config = config_;
  election_config.request_timeout = std::max(
      std::chrono::milliseconds(1000), std::min(config_.request_timeout, options_.retry_period));
  auto client = NewClient(election_config, 0);
  if (!client.ok()) return client.status().WithContext("leader election client");
  election_client_ = *client;
  LeaderElectionConfig election;
  election.namespace_name = OwnNamespace();
  election.name = options_.leader_election_id;
  election.identity = LeaderElector::DefaultIdentity();
  election.lease_duration = options_.lease_duration;
  election.renew_deadline = options_.renew_deadline;
  election.retry_period = options_.retry_period;
  election.metrics = registry_;
  election.clock = clock_;
  election.on_started_leading = [this] {
    spdlog::info("leading: leader-only runnables may start");
    leading_now_ = true;
    StartDue();
  };
  election.on_new_leader = [](const std::string& id) { spdlog::info("current leader: {}", id); };
  election.on_stopped_leading = [this] { OnStoppedLeading(); };
  elector_ = std::make_unique<LeaderElector>(std::move(*client), election);
  return elector_->Start().WithContext("leader election");
}

// A lease lost while running (not released by Stop()): a standby may lead
// already, so this replica's writers are fenced at once, before anyone is
// told: every request of the shared client, in flight or later, fails.
void Manager::OnStoppedLeading() {
  leading_now_ = false;
  bool shutting_down;
  {
    std::lock_guard lock(mu_);
    shutting_down = stopped_;
  }
  if (shutting_down) return;
  if (client_) client_->CancelAll();
  spdlog::error("leadership lost: this replica's API requests are cancelled");
  if (options_.on_leadership_lost) options_.on_leadership_lost();
}

void Manager::RunStartup() {
  if (!ConnectAndWire()) return;
  informers_->StartAll();
  informers_started_ = true;
  PlanStarts();
  auto began = clock_->Now();
  auto next_report = began + kFirstWaitReport;
  while (!startup_.stopping()) {
    NoteCachesSynced(began);
    bool waiting = StartDue();
    if (!waiting && synced_) return;  // the rest waits only for leadership
    if (waiting && clock_->Now() >= next_report) {
      ReportWaiting();
      next_report = clock_->Now() + kWaitReportInterval;
    }
    // Returns at once when every informer has synced, so a healthy start
    // goes on the moment the last cache is filled.
    informers_->WaitForSync(kSyncPoll);
  }
}

bool Manager::ConnectAndWire() {
  Backoff backoff(options_.connect_backoff, clock_);
  while (true) {
    Status probed = discovery_.Probe(*client_, options_.discover, options_.required);
    if (probed.ok()) break;
    auto delay = backoff.Next();
    spdlog::warn("API server not usable yet, retrying in {} ms: {}", delay.count(),
                 probed.ToString());
    if (!startup_.SleepFor(delay)) return false;
  }
  spdlog::info("connected to Kubernetes {} at {} via {}", discovery_.server_version(),
               config_.server, config_.source);
  connected_ = true;
  if (!wiring_) return true;
  if (Status wired = wiring_(*this, discovery_); !wired.ok()) {
    spdlog::error("wiring the controllers failed: {}", wired.ToString());
    if (options_.on_wiring_failed) options_.on_wiring_failed(wired);
    return false;
  }
  return true;
}

// What each runnable waits for, resolved once the wiring has asked for
// every informer.
void Manager::PlanStarts() {
  auto all = informers_->Dependencies();
  std::lock_guard lock(mu_);
  for (const auto& runnable : runnables_) {
    auto declared = runnable->WaitsFor();
    pending_.push_back({runnable, declared.value_or(all)});
    if (!declared) continue;
    std::string names;
    for (const auto& d : *declared) names += (names.empty() ? "" : ", ") + d.name();
    spdlog::info("{} waits for {}", runnable->name(),
                 names.empty() ? std::string("no informer") : "informers " + names);
  }
}

void Manager::NoteCachesSynced(Clock::TimePoint began) {
  if (synced_ || !informers_->WaitForSync(std::chrono::milliseconds(0))) return;
  synced_ = true;
  spdlog::info("{} informer caches synced in {} ms", informers_->size(),
               Millis(clock_->Now() - began));
}

// Starts, in the order added and always-on ones first, every pending
// runnable whose caches have synced, the leader-only ones only while
// leading. Runs on the startup thread and from the elector's callback; mu_
// makes each start happen once and never after Stop() began. A runnable
// whose Start() fails is logged and not retried; an always-on one keeps the
// process unready and is reported as a wiring failure (a served port already
// taken): the process stops. True while a runnable still waits for a cache.
bool Manager::StartDue() {
  std::optional<Status> failed;
  bool waiting = false;
  {
    std::lock_guard lock(mu_);
    if (stopped_) return false;
    // Each informer is asked once per pass, so runnables waiting for the same
    // ones see the same answer and an always-on one is never overtaken by a
    // leader-only one because a cache filled between the two questions.
    std::vector<std::pair<InformerDependency, bool>> seen;
    auto synced = [&seen](const InformerDependency& d) {
      for (const auto& [dependency, answer] : seen) {
        if (dependency == d) return answer;
      }
      seen.emplace_back(d, d.synced());
      return seen.back().second;
    };
    for (bool leader_only : {false, true}) {
      for (auto it = pending_.begin(); it != pending_.end();) {
        const auto& runnable = it->runnable;
        if (runnable->NeedsLeaderElection() != leader_only) {
          ++it;
          continue;
        }
        bool ready = std::all_of(it->waits_for.begin(), it->waits_for.end(), synced);
        waiting = waiting || !ready;
        if (!ready || (leader_only && !leading_now_)) {
          ++it;
          continue;
        }
        if (Status started = runnable->Start(); !started.ok()) {
          spdlog::error("cannot start {}: {}", runnable->name(), started.ToString());
          start_failed_ = start_failed_ || !leader_only;
          if (!leader_only && !failed) failed = started.WithContext(runnable->name());
        } else {
          spdlog::info("started {}{}", runnable->name(), leader_only ? " (leader only)" : "");
          started_.push_back(runnable);
        }
        it = pending_.erase(it);
      }
    }
    bool always_on_pending = std::any_of(pending_.begin(), pending_.end(), [](const Pending& p) {
      return !p.runnable->NeedsLeaderElection();
    });
    if (synced_ && !always_on_pending && !start_failed_) ready_ = true;
  }
  // Outside the lock: the callback stops the process.
  if (failed && options_.on_wiring_failed) options_.on_wiring_failed(*failed);
  return waiting;
}

// One line per runnable held back by a cache, naming each informer it still
// waits for and why that informer has not synced.
void Manager::ReportWaiting() {
  std::vector<std::string> lines;
  {
    std::lock_guard lock(mu_);
    for (const auto& p : pending_) {
      std::string why;
      for (const auto& d : p.waits_for) {
        Status status = d.Check();
        if (!status.ok()) why += (why.empty() ? "" : "; ") + status.message();
      }
      if (!why.empty()) lines.push_back(p.runnable->name() + " waits for informer " + why);
    }
  }
  for (const auto& line : lines) spdlog::warn("{}", line);
}

// Stops the started runnables of one kind, newest first, within the
// graceful-shutdown timeout. A runnable still stopping at the deadline is
// left to the process exit.
bool Manager::StopRunnables(bool leader_only) {
  std::vector<std::shared_ptr<Runnable>> to_stop;
  {
    std::lock_guard lock(mu_);
    for (auto it = started_.rbegin(); it != started_.rend(); ++it) {
      if ((*it)->NeedsLeaderElection() == leader_only) to_stop.push_back(*it);
    }
  }
  if (to_stop.empty()) return true;
  auto done = std::make_shared<std::promise<void>>();
  auto finished = done->get_future();
  std::thread([to_stop, done] {
    for (const auto& runnable : to_stop) runnable->Stop();
    done->set_value();
  }).detach();
  if (finished.wait_for(options_.graceful_shutdown_timeout) == std::future_status::ready) {
    return true;
  }
  spdlog::error("{} runnables did not stop within the graceful-shutdown timeout of {} ms",
                leader_only ? "leader-only" : "always-on",
                options_.graceful_shutdown_timeout.count());
  return false;
}

// As controller-runtime cancels its context on shutdown: requests in flight
// (a discovery probe or LIST against a hung API server, a writer's call) end
// now and later ones fail fast, so Stop() fits in the Pod's grace period.
// The elector's own client is spared while leading: it must release the
// lease once the writers have stopped; its requests time out within a retry
// period anyway.
void Manager::CancelRequests() {
  startup_.RequestStop();
  if (client_) client_->CancelAll();
  if (election_started_ && !elector_->IsLeader()) election_client_->CancelAll();
}

Status Manager::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return Status::Ok();
    stopped_ = true;
  }
  CancelRequests();
  startup_.Stop();
  bool drained = StopRunnables(true);
  spdlog::info("leader-only runnables {}", drained ? "stopped" : "still running");
  if (!drained) {
    abandoned_ = true;
    return Status(StatusCode::kTimeout,
                  "writers still running at the graceful-shutdown deadline; the lease is left "
                  "to expire");
  }
  if (elector_) elector_->Stop();  // releases the lease: a standby takes over at once
  drained = StopRunnables(false);
  if (informers_) informers_->StopAll();
  // Each server joins its connection threads as it stops; overlap them.
  std::thread stop_metrics([this] { metrics_.reset(); });
  health_.reset();
  stop_metrics.join();
  ready_ = false;
  if (!drained) return Status(StatusCode::kTimeout, "runnables still running at the deadline");
  return Status::Ok();
}

}  // namespace kube
