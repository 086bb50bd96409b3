#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "src/base/Result.h"
#include "src/leader/ResourceLock.h"

namespace dra::testing {

// An in-memory lock object with the API server's optimistic concurrency:
// every write gets a new resourceVersion and an update naming an older one
// is refused with Conflict. Several LeaseStoreLocks share one store the way
// several processes share one Lease. Thread-safe.
class LeaseStore {
 public:
  // NotFound while nothing was created.
  kube::Result<kube::LeaderElectionRecord> Read() const;
  // AlreadyExists when the object exists.
  kube::Result<kube::LeaderElectionRecord> Create(kube::LeaderElectionRecord record);
  // Conflict unless `version` is the stored one; NotFound without an object.
  kube::Result<kube::LeaderElectionRecord> Update(const std::string& version,
                                                  kube::LeaderElectionRecord record);
  int writes() const;

 private:
  kube::LeaderElectionRecord Store(kube::LeaderElectionRecord record);

  mutable std::mutex mu_;
  std::optional<kube::LeaderElectionRecord> record_;
  int64_t version_ = 0;
  int writes_ = 0;
};

}  // namespace dra::testing
