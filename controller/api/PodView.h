#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/api/Quantity.h"
#include "src/base/CompactVector.h"
#include "src/base/InternedString.h"
#include "src/base/Result.h"
#include "src/cache/ObjectDecoder.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// core/v1 Pod as the extended-resource/DRA controller needs it.
struct PodView {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;

  // One requested extended resource (a name containing '/') of a container.
  struct ExtendedResource {
    std::string name;
    kube::Quantity request;    // effective: requests[name], or else limits[name]
    kube::Quantity limit;      // zero when has_limit is false
    bool has_request = false;  // requests[name] was set (otherwise request came from limits)
    bool has_limit = false;
    // Position of `name` among all of the container's resource names
    // (requests and limits, cpu and memory included) sorted as strings: the
    // j of the scheduler's "container-<i>-request-<j>". Limits count because
    // the apiserver defaults a missing request to its limit.
    uint16_t request_index = 0;
  };

  // All containers are kept, even without extended resources, so that the
  // index i of "container-<i>-request-<j>" (initContainers ++ containers) is
  // the index in `containers`.
  struct Container {
    std::string name;
    kube::CompactVector<ExtendedResource> resources;
    bool is_init = false;
    bool is_sidecar = false;  // init container with restartPolicy: Always
  };

  struct RequestMapping {
    std::string container_name;
    std::string resource_name;
    std::string request_name;
  };

  struct ExtendedResourceClaimStatus {
    std::string resource_claim_name;
    std::vector<RequestMapping> request_mappings;
  };

  // The PodScheduled condition (why a Pending pod waits).
  struct ScheduledCondition {
    std::string status;  // "True", "False", "Unknown"
    std::string reason;  // e.g. Unschedulable
    std::string message;
  };

  // The health the kubelet reports for a device a DRA claim gave a container.
  enum class ReportedHealth : uint8_t { kHealthy, kUnhealthy, kUnknown };

  // One entry of a container status' allocatedResourcesStatus[].resources[]
  // whose name is "claim:<claim>[/<request>]" (DRA; device-plugin resources
  // are not kept).
  struct DeviceReport {
    std::string container;    // the status' container name
    std::string claim;        // "<claim>/<request>" or "<claim>": the name without "claim:"
    std::string resource_id;  // as written, e.g. "<driver>/<pool>/<device>"
    ReportedHealth health = ReportedHealth::kUnknown;
  };

  // One of the Pod's claims as its containers name it (spec.resourceClaims[].name)
  // and the ResourceClaim it is: spec's resourceClaimName, or for a claim made
  // from a template, status.resourceClaimStatuses[].resourceClaimName.
  struct ClaimRef {
    std::string name;
    std::string resource_claim_name;
  };

  // Every cached Pod holds one, so only what a reader uses is kept: no
  // labels (ObjectMeta without them), no owner, scheduler name or claim
  // list. A bound Pod's PodScheduled condition says nothing the controller
  // reads, hence `scheduled` below.
  kube::ObjectMeta meta;  // meta.deleting: deletion in progress; meta.labels empty
  // Interned: a fleet's Pods share a few thousand node names and five phases.
  kube::InternedString node_name;
  kube::InternedString phase;
  kube::CompactVector<Container> containers;  // initContainers, then containers
  std::optional<ExtendedResourceClaimStatus> extended_resource_claim_status;
  // The PodScheduled condition when its status is not "True"; null otherwise.
  std::shared_ptr<const ScheduledCondition> scheduled;
  // From initContainerStatuses, containerStatuses, then ephemeralContainerStatuses.
  kube::CompactVector<DeviceReport> device_reports;
  // Kept only with device reports, to find the claim a report names.
  kube::CompactVector<ClaimRef> claim_refs;

  bool deletion_in_progress() const { return meta.deleting; }

  // Whether any container requests an extended resource, or the scheduler
  // recorded implicit claims. The Pod informer caches only these: no reader
  // looks at another Pod, and a container's resource names cannot change
  // (in-place resize changes only cpu and memory).
  bool RequestsExtendedResources() const;
  // Whether the kubelet reports the health of any of its DRA devices.
  bool ReportsDeviceHealth() const { return !device_reports.empty(); }

  // The ResourceClaim the Pod's claim `name` is; empty when not (yet) known.
  std::string_view ResourceClaimOf(std::string_view name) const;

  // "Healthy" and "Unhealthy"; anything else (also "Unknown") is kUnknown.
  static ReportedHealth ParseReportedHealth(std::string_view text);
  // The report a status entry named `status_name` makes, or nullopt when the
  // name does not start with "claim:".
  static std::optional<DeviceReport> MakeDeviceReport(std::string_view container,
                                                      std::string_view status_name,
                                                      std::string_view resource_id,
                                                      std::string_view health);

  // Adds a claim reference that names a ResourceClaim, unless `name` has one.
  static void AddClaimRef(kube::CompactVector<ClaimRef>& refs, std::string_view name,
                          std::string_view resource_claim_name);
  // What both decoders do last: claim references go when there is no report.
  void KeepClaimRefsOnlyWithReports();

  // Invalid quantities are skipped; a missing spec reads as no containers.
  static kube::Result<PodView> FromJson(simdjson::dom::element object);
  // The same from a Pod's protobuf message (see PodProtoDecoder).
  static kube::Result<PodView> FromProto(std::string_view object);
  // Both projections: what informers of PodViews are built with, so that they
  // read protobuf.
  static kube::ObjectDecoder<PodView> Decoder() { return {FromJson, FromProto}; }

  // A container's resources.requests or .limits as read: each name, with its
  // quantity's text (nullopt when the value is not a string).
  using ResourceList = std::vector<std::pair<std::string_view, std::optional<std::string_view>>>;
  // Builds a Container from what either decoder read, so that both apply
  // the same rules (extended names only, last key wins, request indexes).
  static Container MakeContainer(std::string name, bool is_init, std::string_view restart_policy,
                                 const ResourceList& requests, const ResourceList& limits);
};

}  // namespace dra::api
