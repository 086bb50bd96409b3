#include "controller/extended/LeakedClaimRemover.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/inventory/InventoryInformers.h"

namespace dra::extended {
namespace {

using Json = nlohmann::json;

constexpr char kExtendedAnnotation[] = "resource.kubernetes.io/extended-resource-claim";

// The string at object[a][b], or "" when any part is missing or not a string.
std::string Field(const Json& object, const char* a, const char* b) {
  if (!object.is_object()) return "";
  auto outer = object.find(a);
  if (outer == object.end() || !outer->is_object()) return "";
  auto inner = outer->find(b);
  return inner != outer->end() && inner->is_string() ? inner->get<std::string>() : "";
}

// The UID of the controlling Pod owner of an implicit claim, or "".
std::string OwnerPodUid(const Json& claim, const std::string& pod_name) {
  auto meta = claim.find("metadata");
  if (meta == claim.end() || !meta->is_object()) return "";
  auto annotations = meta->find("annotations");
  if (annotations == meta->end() || !annotations->is_object() ||
      annotations->value(kExtendedAnnotation, Json()) != Json("true")) {
    return "";
  }
  auto owners = meta->find("ownerReferences");
  if (owners == meta->end() || !owners->is_array()) return "";
  for (const auto& owner : *owners) {
    if (owner.is_object() && owner.value("controller", Json(false)) == Json(true) &&
        owner.value("kind", Json()) == Json("Pod") &&
        owner.value("name", Json()) == Json(pod_name)) {
      return owner.value("uid", Json()).is_string() ? owner["uid"].get<std::string>() : "";
    }
  }
  return "";
}

// True when every status.reservedFor entry is the owner Pod (gone or done).
bool ReservedOnlyByOwner(const Json& claim, const std::string& owner_uid) {
  auto status = claim.find("status");
  if (status == claim.end() || !status->is_object()) return true;
  auto reserved = status->find("reservedFor");
  if (reserved == status->end() || reserved->is_null()) return true;
  if (!reserved->is_array()) return false;
  return std::all_of(reserved->begin(), reserved->end(), [&](const Json& entry) {
    return entry.is_object() && entry.value("apiGroup", Json("")) == Json("") &&
           entry.value("resource", Json()) == Json("pods") &&
           entry.value("uid", Json()) == Json(owner_uid);
  });
}

bool Deleting(const Json& object) {
  return !Field(object, "metadata", "deletionTimestamp").empty();
}

bool HasFinalizer(const Json& object) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return false;
  auto finalizers = meta->find("finalizers");
  return finalizers != meta->end() && finalizers->is_array() &&
         std::find(finalizers->begin(), finalizers->end(), Json(LeakedClaimRemover::kFinalizer)) !=
             finalizers->end();
}

}  // namespace

LeakedClaimRemover::LeakedClaimRemover(std::shared_ptr<kube::RestClient> client)
    : client_(std::move(client)) {}

kube::Result<bool> LeakedClaimRemover::OwnerNeedsClaim(const std::string& ns,
                                                       const std::string& pod_name,
                                                       const std::string& owner_uid) {
  auto pod = client_->Get(api::PodView::kResource.ItemPath(ns, pod_name));
  if (!pod.ok()) {
    if (pod.status().code() == kube::StatusCode::kNotFound) return false;
    return pod.status();
  }
  if (Field(*pod, "metadata", "uid") != owner_uid) return false;
  std::string phase = Field(*pod, "status", "phase");
  if (phase == "Succeeded" || phase == "Failed") return false;
  // Like the claim controller: deleted before it was ever scheduled.
  return !(Deleting(*pod) && Field(*pod, "spec", "nodeName").empty());
}

kube::Result<LeakedClaimRemover::Outcome> LeakedClaimRemover::Remove(
    const api::ResourceClaim& cached) {
  const std::string ns = cached.meta.namespace_name.str();
  if (!cached.controller) return Outcome::kKept;
  const std::string path = api::ResourceClaim::kResource.ItemPath(ns, cached.meta.name);
  auto claim = client_->Get(path);
  if (!claim.ok()) {
    if (claim.status().code() == kube::StatusCode::kNotFound) return Outcome::kGone;
    return claim.status();
  }
  if (Field(*claim, "metadata", "uid") != cached.meta.uid) return Outcome::kGone;
  std::string owner_uid = OwnerPodUid(*claim, cached.controller->name);
  if (owner_uid.empty() || owner_uid != cached.controller->uid) return Outcome::kKept;
  auto needed = OwnerNeedsClaim(ns, cached.controller->name, owner_uid);
  if (!needed.ok()) return needed.status();
  if (*needed || !ReservedOnlyByOwner(*claim, owner_uid)) return Outcome::kKept;
  if (!Deleting(*claim)) {
    kube::DeleteOptions options;
    options.precondition_uid = cached.meta.uid.str();
    options.precondition_resource_version = Field(*claim, "metadata", "resourceVersion");
    kube::Status deleted = client_->Delete(path, options);
    if (deleted.code() == kube::StatusCode::kNotFound) return Outcome::kGone;
    if (!deleted.ok()) return deleted;
    claim = client_->Get(path);
    if (!claim.ok()) {
      if (claim.status().code() == kube::StatusCode::kNotFound) return Outcome::kRemoved;
      return claim.status();
    }
    if (Field(*claim, "metadata", "uid") != cached.meta.uid) return Outcome::kRemoved;
  }
  return Release(path, std::move(*claim), owner_uid);
}

kube::Result<LeakedClaimRemover::Outcome> LeakedClaimRemover::Release(
    const std::string& path, nlohmann::json claim, const std::string& owner_uid) {
  // Another finalizer is its owner's business; the delete stands.
  if (!HasFinalizer(claim)) return Outcome::kRemoved;
  if (!ReservedOnlyByOwner(claim, owner_uid)) return Outcome::kKept;
  if (claim.contains("status") && claim["status"].is_object() && !claim["status"].empty()) {
    claim["status"].erase("reservedFor");
    claim["status"].erase("allocation");
    auto updated = client_->Update(path + "/status", claim);
    if (!updated.ok()) return updated.status();
    claim = std::move(*updated);
  }
  auto& finalizers = claim["metadata"]["finalizers"];
  finalizers.erase(std::remove(finalizers.begin(), finalizers.end(), Json(kFinalizer)),
                   finalizers.end());
  auto updated = client_->Update(path, claim);
  if (!updated.ok() && updated.status().code() != kube::StatusCode::kNotFound) {
    return updated.status();
  }
  return Outcome::kRemoved;
}

}  // namespace dra::extended
