#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
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
// has not renewed it for lease_duration as observed locally (so clock skew
// between processes does not matter); the leader renews every retry_period
// and gives up when it could not renew within renew_deadline. Stop()
// releases a held lease so a standby takes over within one retry period.
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
  std::chrono::steady_clock::time_point observed_at_{};
  std::thread thread_;
};

}  // namespace kube
