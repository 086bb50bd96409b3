#pragma once

#include <prometheus/registry.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/auth/RequestAuthorizer.h"
#include "src/base/BackgroundThread.h"
#include "src/base/Status.h"
#include "src/cache/InformerRegistry.h"
#include "src/client/RestClient.h"
#include "src/client/RestClientMetrics.h"
#include "src/events/EventRecorder.h"
#include "src/http/EndpointServer.h"
#include "src/leader/LeaderElector.h"
#include "src/manager/ApiDiscovery.h"
#include "src/manager/CheckSet.h"
#include "src/manager/ExpositionSources.h"
#include "src/manager/ManagedController.h"
#include "src/manager/ManagerOptions.h"
#include "src/manager/Runnable.h"
#include "src/manager/ServingTlsSource.h"

namespace kube {

// The process-wide runtime a controller binary plugs its reconcilers into,
// modelled on controller-runtime's Manager. It owns the clients, one metrics
// registry and its /metrics server, the probe server with named checks, the
// API discovery probe, the shared informers, leader election and the
// runnables. Start() brings them up in this order:
//   1. clients, /metrics and the probe server (/healthz, /readyz);
//   2. leader election (campaigning runs alongside the rest);
//   3. on a background thread, retrying with backoff until it succeeds:
//      discovery of the API server, then the wiring callback, which asks for
//      informers and registers controllers and runnables for what is served;
//   4. the informers;
//   5. each runnable that needs no leader as soon as the informers it waits
//      for (Runnable::WaitsFor; by default all) have synced, and each
//      leader-only runnable (reconcilers that write) as soon as, in addition,
//      this replica leads. Within one pass the always-on ones start first,
//      each kind in the order added. An informer that never syncs (e.g. its
//      list is Forbidden) holds back only the runnables waiting for it; every
//      30 s the log names each such runnable, the informer and its last
//      error. Ready once every informer has synced and every always-on
//      runnable started.
// Stop() first cancels the requests in flight of the shared client (and of
// the election client unless leading), then undoes the start in reverse:
// leader-only runnables (drained within the graceful-shutdown timeout), then
// leader election (releasing the lease only after the writers have stopped),
// the other runnables, informers, servers. Only runnables that started are
// stopped; none starts once Stop() has begun.
//
// Health checks: "ping"; "leader-election" (a leader whose lease was not
// renewed for renew_deadline + 20 s, or an elector loop silent for
// lease_duration + 20 s); "informers" (a reflector that made no progress for
// its Reflector::stall_timeout(), 5 min by default). Ready checks:
// "api-server"; "informers-synced" (every informer synced, else the ones
// that have not and why; and every reflector had a successful LIST or WATCH
// within the last 5 min); and those added. An informer that cannot sync
// fails readiness, never health: a replica missing a permission is degraded,
// and restarting it would not help.
class Manager {
 public:
  using Wiring = std::function<Status(Manager&, const ApiDiscovery&)>;

  Manager(RestConfig config, ManagerOptions options);
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // Before Start().
  void SetWiring(Wiring wiring);
  void AddHealthCheck(std::string name, CheckSet::Check check);
  void AddReadyCheck(std::string name, CheckSet::Check check);

  // Before Start() or from the wiring callback.
  Result<ManagedController*> AddController(ManagedControllerOptions options,
                                           std::shared_ptr<Reconciler> reconciler);
  void Add(std::unique_ptr<Runnable> runnable);
  InformerRegistry& informers() { return *informers_; }
  const std::shared_ptr<RestClient>& client() const { return client_; }
  const std::shared_ptr<prometheus::Registry>& registry() const { return registry_; }
  const std::shared_ptr<Clock>& clock() const { return clock_; }
  // Pre-rendered text exposition served by /metrics (plain or secure) after
  // the registry's families; see ExpositionSources. Any time, any thread.
  void AddExpositionSource(std::string name, ExpositionSources::Source source);
  // The Event recorder whose Events name `component` as their source: one per
  // name, shared by every caller. The Manager owns it: it starts with the
  // leader-only runnables (only the leader writes Events) and stops with them.
  // Before Start() or from the wiring callback.
  std::shared_ptr<EventRecorder> Recorder(const std::string& component);

  // The certificate servers of this process present: --metrics-cert-dir's
  // (reloaded when its files change), else one self-signed certificate for
  // the Service's names, the same for every server. Any time.
  Result<EndpointServer::TlsOptions> ServingTls() const;
  // A TokenReview + SubjectAccessReview authorizer on a client of its own
  // (no retries, reviews end within 4 s), for a server a feature runs.
  Result<std::shared_ptr<RequestAuthorizer>> NewAuthorizer() const;

  // Fails at once on unusable options (bind errors, bad election timing);
  // everything that waits for the API server happens in the background.
  Status Start();
  // Idempotent. Fails only when runnables did not finish within the
  // graceful-shutdown timeout; the lease is then left to expire and the
  // caller must exit at once (_exit: objects the writers use stay alive).
  Status Stop();

  // Where this process keeps objects of its own (its Lease among them), and
  // the name they start with: --leader-election-namespace and -id, the
  // namespace defaulting to the configuration's.
  std::string OwnNamespace() const;
  const std::string& OwnName() const { return options_.leader_election_id; }

  bool ready() const { return ready_; }
  bool leading() const;
  int health_port() const { return health_ ? health_->port() : 0; }
  int metrics_port() const { return metrics_ ? metrics_->port() : 0; }
  // Whether /metrics is served at all (--metrics-bind-address is not "0"):
  // without it, what only feeds the exposition need not be computed.
  bool serves_metrics() const { return options_.metrics_bind_address != "0"; }

 private:
  Result<std::shared_ptr<RestClient>> NewClient(const RestConfig& config, int max_retries) const;
  Status StartServers();
  Status StartLeaderElection();
  // A runnable not started yet and the caches it waits for.
  struct Pending {
    std::shared_ptr<Runnable> runnable;
    std::vector<InformerDependency> waits_for;
  };

  void RunStartup();
  bool ConnectAndWire();
  void PlanStarts();
  void NoteCachesSynced(Clock::TimePoint began);
  bool StartDue();
  void ReportWaiting();
  bool StopRunnables(bool leader_only);
  void OnStoppedLeading();
  EndpointServer::Reply Probe(const CheckSet& checks, bool verbose) const;
  Status CheckLeaderElection() const;
  void CancelRequests();

  RestConfig config_;
  ManagerOptions options_;
  std::shared_ptr<Clock> clock_;
  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<ExpositionSources> exposition_sources_;
  std::unique_ptr<ServingTlsSource> serving_tls_;
  std::unique_ptr<RestClientMetrics> rest_metrics_;
  std::shared_ptr<RestClient> client_;
  std::unique_ptr<InformerRegistry> informers_;
  std::shared_ptr<RestClient> election_client_;
  std::unique_ptr<LeaderElector> elector_;
  std::unique_ptr<EndpointServer> health_;
  std::unique_ptr<EndpointServer> metrics_;
  CheckSet health_checks_;
  CheckSet ready_checks_;
  Wiring wiring_;
  ApiDiscovery discovery_;

  mutable std::mutex mu_;  // guards the runnables lists and the flags below
  std::vector<std::shared_ptr<Runnable>> runnables_;
  std::map<std::string, std::shared_ptr<EventRecorder>> recorders_;  // by component
  std::vector<Pending> pending_;                    // planned once wired, not started yet
  std::vector<std::shared_ptr<Runnable>> started_;  // in start order
  bool stopped_ = false;
  bool start_failed_ = false;  // an always-on runnable's Start() failed
  bool abandoned_ = false;     // Stop() gave up on writers at the deadline

  std::atomic<bool> connected_{false};
  std::atomic<bool> synced_{false};
  std::atomic<bool> ready_{false};
  std::atomic<bool> leading_now_{false};
  std::atomic<bool> election_started_{false};   // elector_ is set
  std::atomic<bool> informers_started_{false};  // informers_ is set and started
  BackgroundThread startup_;
};

}  // namespace kube
