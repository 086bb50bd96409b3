#include "controller/extended/LeakAudit.h"

namespace dra::extended {

std::string LeakAudit::OwnerKey(const api::ResourceClaim& claim) {
  if (!claim.extended_resource_claim || !claim.controller || claim.controller->kind != "Pod") {
    return "";
  }
  return claim.meta.namespace_name + "/" + claim.controller->name;
}

std::optional<std::string> LeakAudit::Why(const api::ResourceClaim& claim,
                                          const api::PodView* pod) {
  if (!claim.allocated || claim.deletion_in_progress() || OwnerKey(claim).empty()) {
    return std::nullopt;
  }
  const std::string owner = "owner Pod " + OwnerKey(claim);
  if (pod == nullptr) return owner + " is gone";
  if (pod->meta.uid != claim.controller->uid) {
    return owner + " was replaced (UID " + pod->meta.uid + ", the claim's owner was " +
           claim.controller->uid + ")";
  }
  if (pod->phase == "Succeeded" || pod->phase == "Failed") {
    return owner + " has finished (" + pod->phase + ")";
  }
  return std::nullopt;
}

}  // namespace dra::extended
