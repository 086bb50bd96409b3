#pragma once

#include <cstdint>
#include <string>

#include "src/base/Result.h"

namespace kube {

// What a leader-election lock object says (client-go's LeaderElectionRecord).
// The times are metav1.MicroTime text: the election only compares them for
// change, never against a clock, so clock skew between processes is harmless.
struct LeaderElectionRecord {
  std::string holder_identity;  // empty: released, anyone may take it
  int64_t lease_duration_seconds = 0;
  std::string acquire_time;
  std::string renew_time;
  int64_t leader_transitions = 0;
  // The object's version as read by Get(); ignored by Create() and Update().
  // Every write changes it, so it tells renewals apart even if the times do not.
  std::string resource_version;

  bool operator==(const LeaderElectionRecord&) const = default;
};

// The object a LeaderElector competes for. Update() is conditional on the
// version last read or written through this lock, so of two candidates that
// read the same record at most one can write it. One elector uses one lock
// from one thread at a time.
class ResourceLock {
 public:
  virtual ~ResourceLock() = default;

  // NotFound when the object does not exist yet.
  virtual Result<LeaderElectionRecord> Get() = 0;
  // AlreadyExists/Conflict when someone else created it first.
  virtual Status Create(const LeaderElectionRecord& record) = 0;
  // Conflict when the object changed since this lock last read or wrote it.
  virtual Status Update(const LeaderElectionRecord& record) = 0;
  // "namespace/name", for logs.
  virtual std::string Describe() const = 0;
};

}  // namespace kube
