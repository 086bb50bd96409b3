#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "src/base/BackgroundThread.h"
#include "src/base/Clock.h"
#include "src/base/RealClock.h"
#include "src/base/Status.h"
#include "src/client/RestClient.h"
#include "src/leader/ResourceLock.h"

namespace prometheus {
class Registry;
class Gauge;
}  // namespace prometheus

namespace kube {

struct LeaderElectionConfig {
  std::string namespace_name;
  std::string name;      // the Lease object
  std::string identity;  // unique per process
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
  // Callbacks run on the elector's threads with no lock held; they may call
  // IsLeader() and ObservedLeader().
  // Must return promptly: the lease is not renewed while it runs.
  std::function<void()> on_started_leading;
  // Called once when leadership is lost or released (only after
  // on_started_leading); the process should stop reconciling
  // (controller-runtime exits).
  std::function<void()> on_stopped_leading;
  // Called whenever the observed holder changes to a non-empty identity,
  // including this process's own.
  std::function<void(const std::string&)> on_new_leader;
  std::shared_ptr<prometheus::Registry> metrics;  // leader_election_master_status{name}
  std::shared_ptr<Clock> clock = RealClock::Shared();
};

// InvalidArgument naming the offending flag unless
// 0 < retry_period * 1.2 < renew_deadline < lease_duration (client-go's
// rules, 1.2 being its JitterFactor) and name, namespace and identity are set.
Status ValidateLeaderElectionConfig(const LeaderElectionConfig& config);

// Leader election on a ResourceLock (a coordination.k8s.io/v1 Lease), with
// client-go's semantics: a candidate takes the lock when it is free or when
// its record has not changed for lease_duration as measured on the
// candidate's own clock; the leader renews every retry_period and stops
// leading renew_deadline after its last successful renewal. Stop() releases
// a held lease so a standby takes over within one retry period.
//
// Why two processes never lead at once (all durations on each process's own
// monotonic clock; only equal clock rates are assumed):
//  - The leader dates a renewal to when its attempt started, which is before
//    the write was sent and so before the API server stored it. It leads
//    only until that time + renew_deadline: IsLeader() turns false at that
//    instant and a watchdog thread calls on_stopped_leading then, whatever
//    request the renewing thread is stuck in.
//  - A candidate dates a record to when it received a changed record
//    (resourceVersion or any field), which is after that record was stored.
//    It writes only when lease_duration has passed since, and its write is
//    conditional on the version it read, so it succeeds only if nobody wrote
//    the lock after that read. The leader's last renewal was then stored
//    before the candidate received it, so the leader stopped at the latest
//    renew_deadline after that, earlier than lease_duration after it.
//  - Failed reads change nothing: a record seen again after a gap in reads
//    keeps the time it was first received, and a new one is dated now.
// Polling again exactly when the observed lease expires (rather than at the
// next retry) only moves the candidate's read, never the rule above, so it
// keeps SIGKILL failover near lease_duration without costing safety.
// Failed reads and writes wait the jittered retry period.
//
// The renewing thread cannot be interrupted while a request is in flight,
// so the lock's RestClient must not retry by itself (RestClientOptions::
// max_retries = 0) and should time requests out within retry_period (a
// request timeout <= retry_period): otherwise a leader that recovers keeps
// missing its renewals and Stop() waits for the hung request.
class LeaderElector {
 public:
  LeaderElector(std::shared_ptr<ResourceLock> lock, LeaderElectionConfig config);
  // Campaigns for a LeaseLock on config.namespace_name/config.name.
  LeaderElector(std::shared_ptr<RestClient> client, const LeaderElectionConfig& config);
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Starts campaigning; InvalidArgument for an invalid config or a second call.
  Status Start();
  // Stops campaigning; if leading (and before the deadline), steps down and
  // releases the lease. Waits for a request in flight.
  void Stop();

  bool IsLeader() const;
  std::string ObservedLeader() const;

  // While this process leads: when its last successful renewal (or the
  // acquisition) started, on the config's clock; nullopt when not leading. Unlike IsLeader() it
  // does not turn false at the renew deadline by itself: only the renewing or watchdog thread ends
  // leadership, so a value older than renew_deadline means both are stuck.
  std::optional<Clock::TimePoint> LastRenewal() const;
  // When the elector's loop last began or finished an attempt on the lock
  // (a campaign poll or a renewal); Clock::TimePoint{} before Start(). Only
  // meaningful while LoopRunning().
  Clock::TimePoint LoopHeartbeat() const;
  // True from Start() until the loop ends (stopped, or leadership lost).
  bool LoopRunning() const;

  // A reasonable identity: "<hostname>_<random hex>".
  static std::string DefaultIdentity();

 private:
  enum class Outcome { kAcquired, kHeldByOther, kFailed };
  struct Attempt {
    Outcome outcome = Outcome::kFailed;
    Clock::TimePoint started{};  // before any request of the attempt was sent
    Clock::TimePoint expiry{};   // kHeldByOther: when the observed lease expires
  };

  void Run();
  // Until this process acquires the lock (true) or is stopped (false).
  bool Campaign();
  // Renews until stopped or leadership ends.
  void Lead();
  Attempt TryAcquireOrRenew();  // TryOnce() between two heartbeats
  Attempt TryOnce();
  Attempt Write(const LeaderElectionRecord& current, Clock::TimePoint started);
  void Observe(const LeaderElectionRecord& record, Clock::TimePoint received);
  Clock::TimePoint ObservedExpiry() const;
  void BecomeLeader(Clock::TimePoint renewed);
  // False when leadership had already ended (then nothing changes).
  bool ExtendLeadership(Clock::TimePoint renewed);
  bool StillLeading() const;
  void Watchdog();
  // Ends leadership if its deadline has passed; true when it is over.
  bool ExpireAtDeadline();
  void StepDown();
  void Release();
  void NotifyStopped();
  void SetGauge(bool leading);
  void Beat();

  std::shared_ptr<ResourceLock> lock_;
  LeaderElectionConfig config_;
  std::shared_ptr<Clock> clock_;
  prometheus::Gauge* master_status_ = nullptr;

  mutable std::mutex mu_;
  bool leading_ = false;
  Clock::TimePoint deadline_{};  // leading ends here unless renewed first
  LeaderElectionRecord observed_;
  Clock::TimePoint observed_at_{};  // when observed_ was received
  Clock::TimePoint heartbeat_{};
  bool loop_running_ = false;

  BackgroundThread loop_;
  BackgroundThread watchdog_;
};

}  // namespace kube
