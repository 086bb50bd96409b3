#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "controller/api/DeviceToleration.h"
#include "src/api/Quantity.h"
#include "src/base/CompactVector.h"
#include "src/base/InternedString.h"
#include "src/base/Result.h"
#include "src/base/Uid.h"
#include "src/cache/ObjectDecoder.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// resource.k8s.io/v1 ResourceClaim: requests, allocation, reservations and
// the two annotations the extended-resource convention uses. Constraints,
// config and status.devices are not kept. One bad field never drops the
// claim: it makes that request unusable (`invalid_reason`) or is skipped and
// named in `warnings`, and the allocation results are always kept.
struct ResourceClaim {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;

  // "Clients must refuse to handle requests with unknown modes": such a
  // request is kUnknown and has an `invalid_reason`.
  enum class AllocationMode : uint8_t { kExactCount, kAll, kUnknown };

  // Texts that repeat across a fleet's claims (kinds, class, request,
  // driver, pool, device and node names) are interned: one pointer each.
  struct OwnerReference {
    kube::InternedString kind;
    std::string name;
    kube::Uid uid;
  };

  // The fields `exactly` and a firstAvailable subrequest share.
  struct ExactRequest {
    kube::InternedString device_class_name;
    kube::CompactVector<std::string> selectors;  // CEL expressions
    kube::CompactVector<DeviceToleration> tolerations;
    // capacity.requests: what the request asks of a shared device's capacities.
    kube::CompactVector<std::pair<std::string, kube::Quantity>> capacity_requests;
    int64_t count = 1;  // 1 when unset (the API's default for ExactCount)
    // Non-empty when a field could not be read (an unknown allocationMode, a
    // count that is not an integer, an invalid capacity quantity): the
    // request cannot be allocated as written. Interned: claims stamped from
    // one template repeat it.
    kube::InternedString invalid_reason;
    // Last, together: the two one-byte fields share one word.
    AllocationMode allocation_mode = AllocationMode::kExactCount;
    bool admin_access = false;
  };

  struct SubRequest {
    kube::InternedString name;
    ExactRequest request;
  };

  struct Request {
    kube::InternedString name;
    std::optional<ExactRequest> exactly;
    kube::CompactVector<SubRequest> first_available;  // tried in order
  };

  struct AllocationResult {
    kube::InternedString request;  // "<request>" or "<request>/<subrequest>"
    kube::InternedString driver;
    kube::InternedString pool;
    kube::InternedString device;
    kube::CompactVector<DeviceToleration> tolerations;
    // adminAccess: the device is not allocated by this result (the
    // scheduler skips such results when it gathers allocated devices).
    bool admin_access = false;
    std::string share_id;  // shareID: one share of an allowMultipleAllocations device
    kube::CompactVector<std::pair<std::string, kube::Quantity>> consumed_capacity;
  };

  struct Consumer {
    kube::InternedString resource;  // "pods", or another resource (e.g. podgroups)
    std::string name;
    kube::Uid uid;
  };

  kube::ObjectMeta meta;  // meta.deleting: deletion in progress
  // annotation resource.kubernetes.io/extended-resource-claim
  bool extended_resource_claim = false;
  bool allocated = false;                    // status.allocation is set
  kube::InternedString pod_claim_name;       // annotation resource.kubernetes.io/pod-claim-name
  std::optional<OwnerReference> controller;  // the ownerReference with controller: true
  kube::CompactVector<Request> requests;     // spec.devices.requests; null reads as empty
  kube::CompactVector<AllocationResult> results;  // status.allocation.devices.results
  // The node of a node-local allocation: the single matchFields metadata.name
  // In [node] of status.allocation.nodeSelector; empty otherwise.
  kube::InternedString allocated_node_name;
  kube::CompactVector<Consumer> reserved_for;
  // Fields skipped while projecting, with their path.
  kube::CompactVector<std::string> warnings;

  bool deletion_in_progress() const { return meta.deleting; }

  static kube::Result<ResourceClaim> FromJson(simdjson::dom::element object);
  // The same from a claim's protobuf message (see ResourceClaimProtoDecoder).
  static kube::Result<ResourceClaim> FromProto(std::string_view object);
  // Both projections: what informers of ResourceClaims are built with, so that they
  // read protobuf.
  static kube::ObjectDecoder<ResourceClaim> Decoder() { return {FromJson, FromProto}; }

  // Shared by both decoders. "" and "ExactCount" are kExactCount; an unknown
  // mode sets `invalid_reason` (naming `path`) and is kUnknown.
  static AllocationMode ModeFromText(std::string_view text, const std::string& path,
                                     kube::InternedString& invalid_reason);
  // The annotations the extended-resource convention uses.
  void ReadAnnotation(std::string_view key, std::string_view value);
};

}  // namespace dra::api
