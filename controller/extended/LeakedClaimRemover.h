#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "controller/api/ResourceClaim.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace dra::extended {

// What --delete-leaked-claims does to one leaked implicit claim, in the steps
// kube-controller-manager's garbage collector and resource claim controller
// would take. It re-reads the claim and its owner Pod from the API server (the
// cache may lag) and keeps the claim when the Pod exists with the owner's UID
// and is not done, or when anything other than that Pod holds a reservation.
// Otherwise it deletes the claim with a UID and resourceVersion precondition
// (so only the version it checked goes), then, because the delete-protection
// finalizer keeps the claim until its allocation is cleared, empties
// status.reservedFor and status.allocation and takes the finalizer off, each a
// PUT carrying the resourceVersion just read.
class LeakedClaimRemover {
 public:
  enum class Outcome {
    kRemoved,  // deleted (and released) by this call
    kGone,     // already gone, or the name now belongs to another claim
    kKept,     // the API server says the claim is still in use
  };

  explicit LeakedClaimRemover(std::shared_ptr<kube::RestClient> client);

  // `cached` is the leaked claim as the audit saw it. Errors (conflicts,
  // unreachable server) are for a retry.
  kube::Result<Outcome> Remove(const api::ResourceClaim& cached);

  static constexpr char kFinalizer[] = "resource.kubernetes.io/delete-protection";

 private:
  // Whether the live owner Pod still needs the claim (exists, same UID, not done).
  kube::Result<bool> OwnerNeedsClaim(const std::string& ns, const std::string& pod_name,
                                     const std::string& owner_uid);
  kube::Result<Outcome> Release(const std::string& path, nlohmann::json claim,
                                const std::string& owner_uid);

  std::shared_ptr<kube::RestClient> client_;
};

}  // namespace dra::extended
