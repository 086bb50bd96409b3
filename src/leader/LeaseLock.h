#pragma once

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/client/RestClient.h"
#include "src/leader/ResourceLock.h"

namespace kube {

// A ResourceLock on a coordination.k8s.io/v1 Lease. Update() sends the whole
// Lease as last read or written, with its metadata.resourceVersion, so the
// API server refuses it with Conflict if anyone wrote the Lease since.
//
// The client should not retry by itself (max_retries = 0) and should time
// requests out within the election's retry period: the elector decides when
// to try again, and a request it is stuck in only delays its next attempt.
class LeaseLock : public ResourceLock {
 public:
  LeaseLock(std::shared_ptr<RestClient> client, std::string namespace_name, std::string name);

  Result<LeaderElectionRecord> Get() override;
  Status Create(const LeaderElectionRecord& record) override;
  Status Update(const LeaderElectionRecord& record) override;
  std::string Describe() const override;

  // The Lease spec for `record` and back; absent or null fields read as empty.
  static nlohmann::json SpecFromRecord(const LeaderElectionRecord& record);
  static LeaderElectionRecord RecordFromLease(const nlohmann::json& lease);

 private:
  std::shared_ptr<RestClient> client_;
  std::string namespace_name_;
  std::string name_;
  std::string path_;
  std::mutex mu_;
  std::optional<nlohmann::json> lease_;  // as last read or written
};

}  // namespace kube
