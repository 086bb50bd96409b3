#include "controller/api/PodProtoDecoder.h"

#include <memory>
#include <vector>

#include "src/proto/ProtoFields.h"
#include "src/proto/ProtoReader.h"

namespace dra::api {
namespace {

using kube::ProtoReader;

// Field numbers from k8s.io/api core/v1/generated.proto.
namespace pod {
constexpr uint32_t kSpec = 2;
constexpr uint32_t kStatus = 3;
}  // namespace pod
namespace spec {
constexpr uint32_t kContainers = 2;
constexpr uint32_t kNodeName = 10;
constexpr uint32_t kInitContainers = 20;
constexpr uint32_t kResourceClaims = 39;
}  // namespace spec
namespace pod_claim {
constexpr uint32_t kName = 1;
constexpr uint32_t kResourceClaimName = 3;
}  // namespace pod_claim
namespace pod_claim_status {
constexpr uint32_t kName = 1;
constexpr uint32_t kResourceClaimName = 2;
}  // namespace pod_claim_status
namespace container {
constexpr uint32_t kName = 1;
constexpr uint32_t kResources = 8;
constexpr uint32_t kRestartPolicy = 24;
}  // namespace container
namespace requirements {
constexpr uint32_t kLimits = 1;
constexpr uint32_t kRequests = 2;
}  // namespace requirements
namespace status {
constexpr uint32_t kPhase = 1;
constexpr uint32_t kConditions = 2;
constexpr uint32_t kContainerStatuses = 8;
constexpr uint32_t kInitContainerStatuses = 10;
constexpr uint32_t kEphemeralContainerStatuses = 13;
constexpr uint32_t kResourceClaimStatuses = 15;
constexpr uint32_t kExtendedResourceClaimStatus = 18;
}  // namespace status
namespace container_status {
constexpr uint32_t kName = 1;
constexpr uint32_t kAllocatedResourcesStatus = 14;
}  // namespace container_status
namespace resource_status {
constexpr uint32_t kName = 1;
constexpr uint32_t kResources = 2;
}  // namespace resource_status
namespace resource_health {
constexpr uint32_t kResourceId = 1;
constexpr uint32_t kHealth = 2;
}  // namespace resource_health
namespace condition {
constexpr uint32_t kType = 1;
constexpr uint32_t kStatus = 2;
constexpr uint32_t kReason = 5;
constexpr uint32_t kMessage = 6;
}  // namespace condition
namespace claim_status {
constexpr uint32_t kRequestMappings = 1;
constexpr uint32_t kResourceClaimName = 2;
}  // namespace claim_status
namespace mapping {
constexpr uint32_t kContainerName = 1;
constexpr uint32_t kResourceName = 2;
constexpr uint32_t kRequestName = 3;
}  // namespace mapping

kube::Status Malformed(const ProtoReader& reader, const char* where) {
  return reader.status().WithContext(where);
}

// One map<string, Quantity> entry: the name and the quantity's text.
kube::Status AddResourceEntry(std::string_view entry, PodView::ResourceList& list) {
  auto quantity = kube::ProtoFields::QuantityEntry(entry);
  if (!quantity.ok()) return quantity.status();
  list.push_back(*quantity);
  return kube::Status::Ok();
}

kube::Status ReadRequirements(std::string_view message, PodView::ResourceList& requests,
                              PodView::ResourceList& limits) {
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == requirements::kRequests) {
      KUBE_RETURN_IF_ERROR(AddResourceEntry(reader.bytes(), requests));
    } else if (reader.field() == requirements::kLimits) {
      KUBE_RETURN_IF_ERROR(AddResourceEntry(reader.bytes(), limits));
    }
  }
  return Malformed(reader, "resources");
}

// A PodResourceClaim or PodResourceClaimStatus: the name and the
// ResourceClaim's name, at the field numbers given.
kube::Status ReadClaimRef(std::string_view message, uint32_t name_field, uint32_t claim_field,
                          PodView& view) {
  std::string_view name;
  std::string_view resource_claim_name;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == name_field) name = reader.bytes();
    if (reader.field() == claim_field) resource_claim_name = reader.bytes();
  }
  if (!reader.ok()) return Malformed(reader, "resource claim reference");
  PodView::AddClaimRef(view.claim_refs, name, resource_claim_name);
  return kube::Status::Ok();
}

kube::Result<PodView::Container> ReadContainer(std::string_view message, bool is_init) {
  std::string name;
  std::string_view restart_policy;
  PodView::ResourceList requests;
  PodView::ResourceList limits;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == container::kName) name = reader.AsString();
    if (reader.field() == container::kRestartPolicy) restart_policy = reader.bytes();
    if (reader.field() == container::kResources) {
      // A repeated message field merges; only one is ever written.
      requests.clear();
      limits.clear();
      KUBE_RETURN_IF_ERROR(ReadRequirements(reader.bytes(), requests, limits));
    }
  }
  if (!reader.ok()) return Malformed(reader, "container");
  return PodView::MakeContainer(std::move(name), is_init, restart_policy, requests, limits);
}

kube::Status ReadSpec(std::string_view message, PodView& view) {
  std::vector<std::string_view> init;
  std::vector<std::string_view> main;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == spec::kNodeName) view.node_name = reader.AsString();
    if (reader.field() == spec::kInitContainers) init.push_back(reader.bytes());
    if (reader.field() == spec::kContainers) main.push_back(reader.bytes());
    if (reader.field() == spec::kResourceClaims) {
      KUBE_RETURN_IF_ERROR(
          ReadClaimRef(reader.bytes(), pod_claim::kName, pod_claim::kResourceClaimName, view));
    }
  }
  if (!reader.ok()) return Malformed(reader, "spec");
  view.containers.reserve(init.size() + main.size());
  for (std::string_view c : init) {
    auto parsed = ReadContainer(c, true);
    if (!parsed.ok()) return parsed.status();
    view.containers.push_back(std::move(*parsed));
  }
  for (std::string_view c : main) {
    auto parsed = ReadContainer(c, false);
    if (!parsed.ok()) return parsed.status();
    view.containers.push_back(std::move(*parsed));
  }
  return kube::Status::Ok();
}

// Condition "PodScheduled" unless it is True (see PodView::scheduled).
kube::Status ReadCondition(std::string_view message,
                           std::shared_ptr<const PodView::ScheduledCondition>& scheduled) {
  std::string_view type;
  PodView::ScheduledCondition found;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    switch (reader.field()) {
      case condition::kType:
        type = reader.bytes();
        break;
      case condition::kStatus:
        found.status = reader.AsString();
        break;
      case condition::kReason:
        found.reason = reader.AsString();
        break;
      case condition::kMessage:
        found.message = reader.AsString();
        break;
      default:
        break;
    }
  }
  if (!reader.ok()) return Malformed(reader, "condition");
  if (type != "PodScheduled") return kube::Status::Ok();
  if (found.status == "True") {
    scheduled = nullptr;
  } else {
    scheduled = std::make_shared<const PodView::ScheduledCondition>(std::move(found));
  }
  return kube::Status::Ok();
}

kube::Result<PodView::RequestMapping> ReadMapping(std::string_view message) {
  PodView::RequestMapping m;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == mapping::kContainerName) m.container_name = reader.AsString();
    if (reader.field() == mapping::kResourceName) m.resource_name = reader.AsString();
    if (reader.field() == mapping::kRequestName) m.request_name = reader.AsString();
  }
  if (!reader.ok()) return Malformed(reader, "request mapping");
  return m;
}

kube::Result<PodView::ExtendedResourceClaimStatus> ReadClaimStatus(std::string_view message) {
  PodView::ExtendedResourceClaimStatus claim_status;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == claim_status::kResourceClaimName) {
      claim_status.resource_claim_name = reader.AsString();
    } else if (reader.field() == claim_status::kRequestMappings) {
      auto m = ReadMapping(reader.bytes());
      if (!m.ok()) return m.status();
      claim_status.request_mappings.push_back(std::move(*m));
    }
  }
  if (!reader.ok()) return Malformed(reader, "extendedResourceClaimStatus");
  claim_status.request_mappings.shrink_to_fit();
  return claim_status;
}

kube::Status ReadResourceHealth(std::string_view message, std::string_view container,
                                std::string_view status_name,
                                kube::CompactVector<PodView::DeviceReport>& reports) {
  std::string_view resource_id;
  std::string_view health;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == resource_health::kResourceId) resource_id = reader.bytes();
    if (reader.field() == resource_health::kHealth) health = reader.bytes();
  }
  if (!reader.ok()) return Malformed(reader, "resource health");
  auto report = PodView::MakeDeviceReport(container, status_name, resource_id, health);
  if (report) reports.push_back(std::move(*report));
  return kube::Status::Ok();
}

kube::Status ReadResourceStatus(std::string_view message, std::string_view container,
                                kube::CompactVector<PodView::DeviceReport>& reports) {
  std::string_view name;
  std::vector<std::string_view> resources;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == resource_status::kName) name = reader.bytes();
    if (reader.field() == resource_status::kResources) resources.push_back(reader.bytes());
  }
  if (!reader.ok()) return Malformed(reader, "allocatedResourcesStatus");
  if (!name.starts_with("claim:")) return kube::Status::Ok();
  for (std::string_view r : resources) {
    KUBE_RETURN_IF_ERROR(ReadResourceHealth(r, container, name, reports));
  }
  return kube::Status::Ok();
}

kube::Status ReadContainerStatus(std::string_view message,
                                 kube::CompactVector<PodView::DeviceReport>& reports) {
  std::string_view container;
  std::vector<std::string_view> statuses;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == container_status::kName) container = reader.bytes();
    if (reader.field() == container_status::kAllocatedResourcesStatus) {
      statuses.push_back(reader.bytes());
    }
  }
  if (!reader.ok()) return Malformed(reader, "container status");
  for (std::string_view s : statuses) {
    KUBE_RETURN_IF_ERROR(ReadResourceStatus(s, container, reports));
  }
  return kube::Status::Ok();
}

// Container statuses come in field-number order; the view lists init ones
// first, as the JSON does.
kube::Status ReadDeviceReports(const std::vector<std::string_view> (&statuses)[3], PodView& view) {
  for (const auto& list : statuses) {
    for (std::string_view c : list) {
      KUBE_RETURN_IF_ERROR(ReadContainerStatus(c, view.device_reports));
    }
  }
  view.device_reports.shrink_to_fit();
  return kube::Status::Ok();
}

kube::Status ReadStatus(std::string_view message, PodView& view) {
  std::vector<std::string_view> statuses[3];  // init, regular, ephemeral
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    switch (reader.field()) {
      case status::kPhase:
        view.phase = reader.AsString();
        break;
      case status::kConditions:
        KUBE_RETURN_IF_ERROR(ReadCondition(reader.bytes(), view.scheduled));
        break;
      case status::kExtendedResourceClaimStatus: {
        auto claim_status = ReadClaimStatus(reader.bytes());
        if (!claim_status.ok()) return claim_status.status();
        view.extended_resource_claim_status = std::move(*claim_status);
        break;
      }
      case status::kInitContainerStatuses:
        statuses[0].push_back(reader.bytes());
        break;
      case status::kContainerStatuses:
        statuses[1].push_back(reader.bytes());
        break;
      case status::kEphemeralContainerStatuses:
        statuses[2].push_back(reader.bytes());
        break;
      case status::kResourceClaimStatuses:
        KUBE_RETURN_IF_ERROR(ReadClaimRef(reader.bytes(), pod_claim_status::kName,
                                          pod_claim_status::kResourceClaimName, view));
        break;
      default:
        break;
    }
  }
  if (!reader.ok()) return Malformed(reader, "status");
  return ReadDeviceReports(statuses, view);
}

}  // namespace

kube::Result<PodView> PodProtoDecoder::Decode(std::string_view pod) {
  PodView view;
  KUBE_ASSIGN_OR_RETURN(view.meta,
                        kube::ObjectMeta::FromProto(pod, kube::ObjectMeta::Labels::kSkip));
  ProtoReader reader(pod);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == pod::kSpec) KUBE_RETURN_IF_ERROR(ReadSpec(reader.bytes(), view));
    if (reader.field() == pod::kStatus) KUBE_RETURN_IF_ERROR(ReadStatus(reader.bytes(), view));
  }
  if (!reader.ok()) return Malformed(reader, "pod");
  view.KeepClaimRefsOnlyWithReports();
  return view;
}

}  // namespace dra::api
