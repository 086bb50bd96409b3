#include "controller/extended/FindingReporter.h"

#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include "src/events/EventRecorder.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::extended {
namespace {

using Kind = MappingFinding::Kind;
constexpr Kind kAllKinds[] = {Kind::kDuplicate, Kind::kOrderHazard, Kind::kNoDevices,
                              Kind::kDevicePluginOverlap};

}  // namespace

FindingReporter::FindingReporter(EventFn event,
                                 const std::shared_ptr<prometheus::Registry>& registry)
    : event_(std::move(event)) {
  if (!registry) return;
  auto family = kube::MetricFamilyCache::Gauge(
      registry, "dra_controller_extended_resource_findings",
      "Open findings about the extended-resource to DeviceClass mapping, by kind", {"kind"});
  if (family.ok()) gauge_ = *family;
  UpdateGauge({});
}

kube::ObjectReference FindingReporter::ReferenceTo(const MappingFinding& finding) {
  kube::ObjectReference ref;
  ref.kind = finding.object_kind;
  ref.api_version = finding.object_kind == "Node" ? "v1" : "resource.k8s.io/v1";
  ref.name = finding.object_name;
  return ref;
}

void FindingReporter::Report(const std::vector<MappingFinding>& findings) {
  std::map<std::string, MappingFinding> now;
  for (const auto& finding : findings) now.emplace(finding.Key(), finding);
  for (const auto& [key, finding] : now) {
    auto open = open_.find(key);
    if (open != open_.end() && open->second.message == finding.message) continue;
    Warn(finding, open != open_.end());
  }
  for (const auto& [key, finding] : open_) {
    if (!now.contains(key)) Resolve(finding);
  }
  open_ = std::move(now);
  UpdateGauge(findings);
}

void FindingReporter::Warn(const MappingFinding& finding, bool changed) {
  spdlog::warn("extended resources: {} on {} {}{}: {}", MappingFinding::KindName(finding.kind),
               finding.object_kind, finding.object_name, changed ? " (changed)" : "",
               finding.message);
  if (event_) {
    event_(ReferenceTo(finding), kube::kEventTypeWarning,
           std::string(MappingFinding::KindName(finding.kind)), finding.message);
  }
}

void FindingReporter::Resolve(const MappingFinding& finding) {
  spdlog::info("extended resources: {} on {} {} cleared", MappingFinding::KindName(finding.kind),
               finding.object_kind, finding.object_name);
  if (event_) {
    event_(ReferenceTo(finding), kube::kEventTypeNormal,
           std::string(MappingFinding::KindName(finding.kind)) + "Resolved",
           finding.ResolvedMessage());
  }
}

void FindingReporter::UpdateGauge(const std::vector<MappingFinding>& findings) {
  if (gauge_ == nullptr) return;
  for (Kind kind : kAllKinds) {
    double count = 0;
    for (const auto& finding : findings) count += finding.kind == kind ? 1 : 0;
    gauge_->Add({{"kind", std::string(MappingFinding::KindName(kind))}}).Set(count);
  }
}

}  // namespace dra::extended
