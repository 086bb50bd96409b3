#include "tests/support/LeaseStoreLock.h"

namespace dra::testing {

LeaseStoreLock::LeaseStoreLock(std::shared_ptr<LeaseStore> store) : store_(std::move(store)) {}

LeaseStoreLock::~LeaseStoreLock() { BlockWrites(false); }

kube::Result<kube::LeaderElectionRecord> LeaseStoreLock::Get() {
  std::lock_guard lock(mu_);
  ++reads_;
  if (read_error_) return *read_error_;
  auto record = store_->Read();
  if (record.ok()) version_ = record->resource_version;
  return record;
}

kube::Status LeaseStoreLock::Create(const kube::LeaderElectionRecord& record) {
  std::lock_guard lock(mu_);
  ++writes_;
  if (write_error_) return *write_error_;
  auto created = store_->Create(record);
  if (!created.ok()) return created.status();
  version_ = created->resource_version;
  return kube::Status::Ok();
}

kube::Status LeaseStoreLock::Update(const kube::LeaderElectionRecord& record) {
  std::unique_lock lock(mu_);
  ++writes_;
  ++blocked_writes_;
  unblocked_.wait(lock, [this] { return !blocked_; });
  --blocked_writes_;
  if (write_error_) return *write_error_;
  auto updated = store_->Update(version_, record);
  if (!updated.ok()) return updated.status();
  version_ = updated->resource_version;
  return kube::Status::Ok();
}

void LeaseStoreLock::FailReads(std::optional<kube::Status> error) {
  std::lock_guard lock(mu_);
  read_error_ = std::move(error);
}

void LeaseStoreLock::FailWrites(std::optional<kube::Status> error) {
  std::lock_guard lock(mu_);
  write_error_ = std::move(error);
}

void LeaseStoreLock::BlockWrites(bool blocked) {
  {
    std::lock_guard lock(mu_);
    blocked_ = blocked;
  }
  unblocked_.notify_all();
}

int LeaseStoreLock::reads() const {
  std::lock_guard lock(mu_);
  return reads_;
}

int LeaseStoreLock::writes() const {
  std::lock_guard lock(mu_);
  return writes_;
}

int LeaseStoreLock::blocked_writes() const {
  std::lock_guard lock(mu_);
  return blocked_writes_;
}

}  // namespace dra::testing
