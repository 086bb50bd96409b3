#include "src/leader/LeaseLock.h"

#include "src/base/NlohmannFields.h"

namespace kube {
namespace {

const ResourceType kLeases{"coordination.k8s.io", "v1", "leases", true, "Lease"};

// Lease fields may be absent or null (nlohmann's value() throws on null).
using NF = NlohmannFields;

}  // namespace

LeaseLock::LeaseLock(std::shared_ptr<RestClient> client, std::string namespace_name,
                     std::string name)
    : client_(std::move(client)),
      namespace_name_(std::move(namespace_name)),
      name_(std::move(name)),
      path_(kLeases.ItemPath(namespace_name_, name_)) {}

nlohmann::json LeaseLock::SpecFromRecord(const LeaderElectionRecord& record) {
  nlohmann::json spec = {{"holderIdentity", record.holder_identity},
                         {"leaseDurationSeconds", record.lease_duration_seconds},
                         {"leaseTransitions", record.leader_transitions}};
  if (!record.acquire_time.empty()) spec["acquireTime"] = record.acquire_time;
  if (!record.renew_time.empty()) spec["renewTime"] = record.renew_time;
  return spec;
}

LeaderElectionRecord LeaseLock::RecordFromLease(const nlohmann::json& lease) {
  const nlohmann::json& spec = NF::At(lease, "spec");
  LeaderElectionRecord record;
  record.holder_identity = NF::StringAt(spec, "holderIdentity");
  record.lease_duration_seconds = NF::IntAt(spec, "leaseDurationSeconds");
  record.acquire_time = NF::StringAt(spec, "acquireTime");
  record.renew_time = NF::StringAt(spec, "renewTime");
  record.leader_transitions = NF::IntAt(spec, "leaseTransitions");
  record.resource_version = NF::StringAt(NF::At(lease, "metadata"), "resourceVersion");
  return record;
}

Result<LeaderElectionRecord> LeaseLock::Get() {
  auto lease = client_->Get(path_);
  if (!lease.ok()) return lease.status();
  LeaderElectionRecord record = RecordFromLease(*lease);
  std::lock_guard lock(mu_);
  lease_ = std::move(*lease);
  return record;
}

Status LeaseLock::Create(const LeaderElectionRecord& record) {
  nlohmann::json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                          {"kind", "Lease"},
                          {"metadata", {{"name", name_}, {"namespace", namespace_name_}}},
                          {"spec", SpecFromRecord(record)}};
  auto created = client_->Create(kLeases, namespace_name_, lease);
  if (!created.ok()) return created.status();
  std::lock_guard lock(mu_);
  lease_ = std::move(*created);
  return Status::Ok();
}

Status LeaseLock::Update(const LeaderElectionRecord& record) {
  nlohmann::json lease;
  {
    std::lock_guard lock(mu_);
    if (!lease_ || !lease_->is_object()) {
      return Status(StatusCode::kInvalidArgument,
                    "lease " + Describe() + " not read yet: call Get or Create first");
    }
    lease = *lease_;
  }
  lease["spec"] = SpecFromRecord(record);
  auto updated = client_->Update(path_, lease);
  if (!updated.ok()) return updated.status();
  std::lock_guard lock(mu_);
  lease_ = std::move(*updated);
  return Status::Ok();
}

std::string LeaseLock::Describe() const { return namespace_name_ + "/" + name_; }

}  // namespace kube
