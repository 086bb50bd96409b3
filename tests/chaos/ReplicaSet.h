#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/base/Status.h"
#include "tests/chaos/ChaosReplica.h"
#include "tests/chaos/LeaderTerm.h"

namespace dra::testing {

// How one replica process ended.
struct ReplicaExit {
  std::string name;
  int code = 0;                    // exit status, or 128 + signal
  bool killed_by_us = false;       // the SIGKILL of the leader kill loop
  bool leadership_lost = false;    // exit 1 after "leader election lost" (documented)
  bool stopped_by_us = false;      // SIGTERM at the end of the run
  std::optional<LeaderTerm> term;  // when it led (one term: it exits when it loses)
  // Neither a kill of ours, a documented leadership-lost exit nor a clean stop.
  bool Crashed() const {
    if (killed_by_us) return code != 128 + 9;
    if (stopped_by_us) return code != 0;
    return !(code == 1 && leadership_lost);
  }
};

// A fixed number of replicas competing for one Lease, kept at that number
// as a Deployment would: a replica that exits is recorded and replaced, the
// leader can be SIGKILLed (and replaced). Every process's log is saved to
// `log_dir` when it ends. Thread-safe.
class ReplicaSet {
 public:
  ReplicaSet(std::string kubeconfig, std::vector<std::string> flags, std::string log_dir);
  ~ReplicaSet();

  kube::Status Start(int replicas);
  // Each slot's leader_election_master_status (-1: unreachable).
  std::vector<int> MasterStatuses(std::chrono::milliseconds timeout);
  // Replaces replicas that exited on their own (recording how).
  void Supervise();
  // SIGKILLs the replica that reports leading and starts a new one in its
  // place; the killed replica's name, or "" if none was leading.
  std::string KillLeader();
  // The current leader's /metrics page ("" if none leads).
  std::string LeaderMetrics();
  // SIGTERMs every replica and waits for each (recorded as stopped_by_us).
  void StopAll(std::chrono::seconds timeout);

  std::vector<ReplicaExit> exits() const;
  int started() const;

 private:
  kube::Status StartSlot(size_t slot);
  void Record(size_t slot, int code, bool killed, bool stopped);

  std::string kubeconfig_;
  std::vector<std::string> flags_;
  std::string log_dir_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<ChaosReplica>> slots_;
  std::vector<ReplicaExit> exits_;
  int started_ = 0;
};

}  // namespace dra::testing
