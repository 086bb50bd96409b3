#include "tests/support/LeaseStore.h"

namespace dra::testing {

kube::Result<kube::LeaderElectionRecord> LeaseStore::Read() const {
  std::lock_guard lock(mu_);
  if (!record_) return kube::Status(kube::StatusCode::kNotFound, "lease not found");
  return *record_;
}

kube::Result<kube::LeaderElectionRecord> LeaseStore::Create(kube::LeaderElectionRecord record) {
  std::lock_guard lock(mu_);
  if (record_) return kube::Status(kube::StatusCode::kAlreadyExists, "lease already exists");
  return Store(std::move(record));
}

kube::Result<kube::LeaderElectionRecord> LeaseStore::Update(const std::string& version,
                                                            kube::LeaderElectionRecord record) {
  std::lock_guard lock(mu_);
  if (!record_) return kube::Status(kube::StatusCode::kNotFound, "lease not found");
  if (record_->resource_version != version) {
    return kube::Status(kube::StatusCode::kConflict, "lease changed: version " + version +
                                                         " is not " + record_->resource_version);
  }
  return Store(std::move(record));
}

int LeaseStore::writes() const {
  std::lock_guard lock(mu_);
  return writes_;
}

kube::LeaderElectionRecord LeaseStore::Store(kube::LeaderElectionRecord record) {
  record.resource_version = std::to_string(++version_);
  record_ = record;
  ++writes_;
  return record;
}

}  // namespace dra::testing
