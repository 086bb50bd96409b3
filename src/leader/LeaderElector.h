#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "src/client/RestClient.h"

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
  std::function<void()> on_started_leading;
  // Called once when leadership is lost or released; the process should stop
  // reconciling (controller-runtime exits).
  std::function<void()> on_stopped_leading;
  std::function<void(const std::string&)> on_new_leader;
  prometheus::Registry* metrics = nullptr;  // leader_election_master_status{name}
};

// Leader election on a coordination.k8s.io/v1 Lease, with client-go's
// semantics: a candidate takes the lease when it is free or when its holder
// has not renewed it for lease_duration as measured on the candidate's own
// clock (so clock skew between processes does not matter); the leader renews
// every retry_period and gives up before renew_deadline passes without a
// renewal. Stop() releases a held lease so a standby takes over within one
// retry period.
//
// Two refinements over client-go make SIGKILL failover lease_duration rather
// than lease_duration + 2 retry periods: a renewal first seen by a poll is
// dated to the start of the previous successful poll (the write happened after
// that read), and a candidate polls again exactly when the observed lease
// expires. Both stay safe because the leader stops leading renew_deadline
// after its last renewal, and lease_duration - renew_deadline (5 s by
// default) exceeds one retry period plus a request. Requests should use a
// transport whose timeout is about retry_period so a hung call cannot hold
// the leader past its deadline.
class LeaderElector {
 public:
  explicit LeaderElector(std::shared_ptr<RestClient> client, LeaderElectionConfig config);
  ~LeaderElector();

  void Start();
  // Stops campaigning; if leading, releases the lease first.
  void Stop();

  bool IsLeader() const { return leading_; }
  std::string ObservedLeader() const;

  // A reasonable identity: "<hostname>_<random hex>".
  static std::string DefaultIdentity();

 private:
  struct Observation;

  void Run();
  bool TryAcquireOrRenew();
  void Release();
  bool WaitOrStop(std::chrono::milliseconds delay);
  // How long a candidate waits before its next attempt.
  std::chrono::milliseconds CandidateDelay() const;
  // Whether a leader whose last renewal was at `last_renew` could no longer
  // start another attempt before renew_deadline.
  bool PastRenewDeadline(std::chrono::steady_clock::time_point last_renew) const;
  void SetLeading(bool leading);

  std::shared_ptr<RestClient> client_;
  LeaderElectionConfig config_;
  std::string path_;
  std::atomic<bool> leading_{false};
  prometheus::Gauge* master_status_ = nullptr;

  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::string observed_holder_;
  std::string observed_renew_time_;
  std::chrono::milliseconds observed_duration_{0};
  std::chrono::steady_clock::time_point observed_at_{};
  // When the last read that returned the lease was sent.
  std::optional<std::chrono::steady_clock::time_point> last_read_sent_;
  std::thread thread_;
};

}  // namespace kube
