#include "controller/api/PodView.h"

#include <algorithm>

#include "controller/api/JsonWalk.h"
#include "controller/api/PodProtoDecoder.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::ResourceType PodView::kResource{"", "v1", "pods", true, "Pod"};
namespace {

using kube::json::Field;
using kube::json::StringOr;

// The sorted union of the names under requests and limits.
std::vector<std::string_view> SortedResourceNames(const PodView::ResourceList& requests,
                                                  const PodView::ResourceList& limits) {
  std::vector<std::string_view> names;
  names.reserve(requests.size() + limits.size());
  for (const auto& entry : requests) names.push_back(entry.first);
  for (const auto& entry : limits) names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void AssignRequestIndexes(const PodView::ResourceList& requests,
                          const PodView::ResourceList& limits,
                          kube::CompactVector<PodView::ExtendedResource>& resources) {
  if (resources.empty()) return;
  std::vector<std::string_view> names = SortedResourceNames(requests, limits);
  for (auto& resource : resources) {
    auto it = std::lower_bound(names.begin(), names.end(), std::string_view(resource.name));
    resource.request_index = static_cast<uint16_t>(it - names.begin());
  }
}

PodView::ExtendedResource* FindResource(PodView::Container& container, std::string_view name) {
  for (auto& resource : container.resources) {
    if (resource.name == name) return &resource;
  }
  return nullptr;
}

// An extended resource's valid quantity; nullopt for other names, values
// that are not strings and invalid quantities (all skipped).
std::optional<kube::Quantity> ExtendedQuantity(
    const std::pair<std::string_view, std::optional<std::string_view>>& entry) {
  if (!json::ContainsSlash(entry.first) || !entry.second.has_value()) return std::nullopt;
  auto quantity = kube::Quantity::Parse(*entry.second);
  if (!quantity.ok()) return std::nullopt;
  return *quantity;
}

PodView::ResourceList ResourceEntries(simdjson::dom::element list) {
  PodView::ResourceList entries;
  json::ForEachMember(list, [&](std::string_view name, simdjson::dom::element value) {
    std::string_view text;
    entries.emplace_back(name, value.get(text) == simdjson::SUCCESS
                                   ? std::optional<std::string_view>(text)
                                   : std::nullopt);
  });
  return entries;
}

PodView::Container ParseContainer(simdjson::dom::element c, bool is_init) {
  simdjson::dom::element resources = Field(c, "resources");
  return PodView::MakeContainer(
      std::string(StringOr(c, "name")), is_init, StringOr(c, "restartPolicy"),
      ResourceEntries(Field(resources, "requests")), ResourceEntries(Field(resources, "limits")));
}

// Condition "PodScheduled" unless it is True (see PodView::scheduled).
std::shared_ptr<const PodView::ScheduledCondition> PendingSchedule(simdjson::dom::element status) {
  std::shared_ptr<const PodView::ScheduledCondition> found;
  json::ForEachElement(Field(status, "conditions"), [&](simdjson::dom::element c) {
    if (StringOr(c, "type") != "PodScheduled") return;
    std::string_view state = StringOr(c, "status");
    if (state == "True") {
      found = nullptr;
      return;
    }
    found = std::make_shared<const PodView::ScheduledCondition>(
        PodView::ScheduledCondition{std::string(state), std::string(StringOr(c, "reason")),
                                    std::string(StringOr(c, "message"))});
  });
  return found;
}

std::optional<PodView::ExtendedResourceClaimStatus> ClaimStatus(simdjson::dom::element status) {
  simdjson::dom::element extended = Field(status, "extendedResourceClaimStatus");
  if (!kube::json::IsObject(extended)) return std::nullopt;
  PodView::ExtendedResourceClaimStatus claim_status;
  claim_status.resource_claim_name = StringOr(extended, "resourceClaimName");
  simdjson::dom::element mappings = Field(extended, "requestMappings");
  claim_status.request_mappings.reserve(json::Size(mappings));
  json::ForEachElement(mappings, [&](simdjson::dom::element m) {
    claim_status.request_mappings.push_back({std::string(StringOr(m, "containerName")),
                                             std::string(StringOr(m, "resourceName")),
                                             std::string(StringOr(m, "requestName"))});
  });
  return claim_status;
}

// The DRA device reports of one container status.
void AddDeviceReports(simdjson::dom::element container_status,
                      kube::CompactVector<PodView::DeviceReport>& reports) {
  std::string_view container = StringOr(container_status, "name");
  json::ForEachElement(
      Field(container_status, "allocatedResourcesStatus"), [&](simdjson::dom::element status) {
        std::string_view name = StringOr(status, "name");
        json::ForEachElement(Field(status, "resources"), [&](simdjson::dom::element r) {
          auto report = PodView::MakeDeviceReport(container, name, StringOr(r, "resourceID"),
                                                  StringOr(r, "health"));
          if (report) reports.push_back(std::move(*report));
        });
      });
}

kube::CompactVector<PodView::DeviceReport> DeviceReports(simdjson::dom::element status) {
  kube::CompactVector<PodView::DeviceReport> reports;
  for (const char* list :
       {"initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"}) {
    json::ForEachElement(Field(status, list),
                         [&](simdjson::dom::element c) { AddDeviceReports(c, reports); });
  }
  reports.shrink_to_fit();
  return reports;
}

void AddClaimRefs(simdjson::dom::element list, kube::CompactVector<PodView::ClaimRef>& refs) {
  json::ForEachElement(list, [&](simdjson::dom::element ref) {
    PodView::AddClaimRef(refs, StringOr(ref, "name"), StringOr(ref, "resourceClaimName"));
  });
}

}  // namespace

kube::Result<PodView> PodView::FromJson(simdjson::dom::element object) {
  PodView pod;
  KUBE_ASSIGN_OR_RETURN(pod.meta,
                        kube::ObjectMeta::FromObject(object, kube::ObjectMeta::Labels::kSkip));
  simdjson::dom::element spec = Field(object, "spec");
  pod.node_name = StringOr(spec, "nodeName");
  simdjson::dom::element init = Field(spec, "initContainers");
  simdjson::dom::element main = Field(spec, "containers");
  pod.containers.reserve(json::Size(init) + json::Size(main));
  json::ForEachElement(
      init, [&](simdjson::dom::element c) { pod.containers.push_back(ParseContainer(c, true)); });
  json::ForEachElement(
      main, [&](simdjson::dom::element c) { pod.containers.push_back(ParseContainer(c, false)); });

  simdjson::dom::element status = Field(object, "status");
  pod.phase = StringOr(status, "phase");
  pod.extended_resource_claim_status = ClaimStatus(status);
  pod.scheduled = PendingSchedule(status);
  pod.device_reports = DeviceReports(status);
  AddClaimRefs(Field(spec, "resourceClaims"), pod.claim_refs);
  AddClaimRefs(Field(status, "resourceClaimStatuses"), pod.claim_refs);
  pod.KeepClaimRefsOnlyWithReports();
  return pod;
}

kube::Result<PodView> PodView::FromProto(std::string_view object) {
  return PodProtoDecoder::Decode(object);
}

// A key repeated in requests or limits: the last one counts, as in the Go
// decoder, and the name stays one resource.
PodView::Container PodView::MakeContainer(std::string name, bool is_init,
                                          std::string_view restart_policy,
                                          const ResourceList& requests,
                                          const ResourceList& limits) {
  Container container;
  container.name = std::move(name);
  container.is_init = is_init;
  container.is_sidecar = is_init && restart_policy == "Always";
  for (const auto& entry : requests) {
    auto quantity = ExtendedQuantity(entry);
    if (!quantity.has_value()) continue;
    if (auto* seen = FindResource(container, entry.first)) {
      seen->request = *quantity;
      continue;
    }
    ExtendedResource resource;
    resource.name = entry.first;
    resource.request = *quantity;
    resource.has_request = true;
    container.resources.push_back(std::move(resource));
  }
  for (const auto& entry : limits) {
    auto quantity = ExtendedQuantity(entry);
    if (!quantity.has_value()) continue;
    if (auto* seen = FindResource(container, entry.first)) {
      seen->limit = *quantity;
      seen->has_limit = true;
      if (!seen->has_request) seen->request = *quantity;
      continue;
    }
    ExtendedResource resource;
    resource.name = entry.first;
    resource.request = *quantity;  // requests default to limits
    resource.limit = *quantity;
    resource.has_limit = true;
    container.resources.push_back(std::move(resource));
  }
  AssignRequestIndexes(requests, limits, container.resources);
  container.resources.shrink_to_fit();
  return container;
}

PodView::ReportedHealth PodView::ParseReportedHealth(std::string_view text) {
  if (text == "Healthy") return ReportedHealth::kHealthy;
  if (text == "Unhealthy") return ReportedHealth::kUnhealthy;
  return ReportedHealth::kUnknown;
}

std::optional<PodView::DeviceReport> PodView::MakeDeviceReport(std::string_view container,
                                                               std::string_view status_name,
                                                               std::string_view resource_id,
                                                               std::string_view health) {
  constexpr std::string_view kClaimPrefix = "claim:";
  if (!status_name.starts_with(kClaimPrefix) || resource_id.empty()) return std::nullopt;
  return DeviceReport{std::string(container), std::string(status_name.substr(kClaimPrefix.size())),
                      std::string(resource_id), ParseReportedHealth(health)};
}

void PodView::AddClaimRef(kube::CompactVector<ClaimRef>& refs, std::string_view name,
                          std::string_view resource_claim_name) {
  if (name.empty() || resource_claim_name.empty()) return;
  bool known =
      std::any_of(refs.begin(), refs.end(), [&](const ClaimRef& ref) { return ref.name == name; });
  if (!known) refs.push_back({std::string(name), std::string(resource_claim_name)});
}

void PodView::KeepClaimRefsOnlyWithReports() {
  if (device_reports.empty()) claim_refs = kube::CompactVector<ClaimRef>();
  claim_refs.shrink_to_fit();
}

std::string_view PodView::ResourceClaimOf(std::string_view name) const {
  for (const auto& ref : claim_refs) {
    if (ref.name == name) return ref.resource_claim_name;
  }
  return {};
}

bool PodView::RequestsExtendedResources() const {
  if (extended_resource_claim_status) return true;
  return std::any_of(containers.begin(), containers.end(),
                     [](const Container& c) { return !c.resources.empty(); });
}

}  // namespace dra::api
