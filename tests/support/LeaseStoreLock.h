#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "src/leader/ResourceLock.h"
#include "tests/support/LeaseStore.h"

namespace dra::testing {

// One process's view of a LeaseStore, as LeaseLock is of a Lease: updates
// are conditional on the version this lock last read or wrote. Tests inject
// failures (every read or write fails while set) and hang writes (Update
// blocks until unblocked) to play partitions, 5xx and stuck requests.
class LeaseStoreLock : public kube::ResourceLock {
 public:
  explicit LeaseStoreLock(std::shared_ptr<LeaseStore> store);
  ~LeaseStoreLock() override;

  kube::Result<kube::LeaderElectionRecord> Get() override;
  kube::Status Create(const kube::LeaderElectionRecord& record) override;
  kube::Status Update(const kube::LeaderElectionRecord& record) override;
  std::string Describe() const override { return "default/lock"; }

  void FailReads(std::optional<kube::Status> error);
  void FailWrites(std::optional<kube::Status> error);
  // While blocked, Update() waits (before touching the store) until unblocked.
  void BlockWrites(bool blocked);

  int reads() const;           // Get() calls
  int writes() const;          // Create() and Update() calls
  int blocked_writes() const;  // Update() calls waiting now

 private:
  std::shared_ptr<LeaseStore> store_;
  mutable std::mutex mu_;
  std::condition_variable unblocked_;
  std::string version_;  // as last read or written
  std::optional<kube::Status> read_error_;
  std::optional<kube::Status> write_error_;
  bool blocked_ = false;
  int reads_ = 0;
  int writes_ = 0;
  int blocked_writes_ = 0;
};

}  // namespace dra::testing
