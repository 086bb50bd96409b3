#include "controller/extended/MappingReconciler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "controller/extended/SchedulerMappingEvidence.h"
#include "src/base/RealClock.h"
#include "src/events/EventRecorder.h"

namespace dra::extended {
namespace {

using ClassPtr = std::shared_ptr<const api::DeviceClass>;
using Kind = MappingFinding::Kind;

bool Has(const std::vector<MappingFinding>& findings, Kind kind) {
  return std::any_of(findings.begin(), findings.end(),
                     [kind](const MappingFinding& f) { return f.kind == kind; });
}

}  // namespace

MappingReconciler::MappingReconciler(Stores stores, const inventory::Inventory& inventory,
                                     FindingReporter& reporter, RepairFn repair,
                                     FindingReporter::EventFn event,
                                     std::shared_ptr<kube::Clock> clock)
    : stores_(stores),
      inventory_(inventory),
      reporter_(reporter),
      repair_(std::move(repair)),
      event_(std::move(event)),
      clock_(clock ? std::move(clock) : kube::RealClock::Shared()) {}

bool MappingReconciler::MayShowHazard(const api::PodView& pod) {
  return pod.node_name.empty() && pod.scheduled &&
         pod.scheduled->message.find("Insufficient") != std::string::npos;
}

kube::ReconcileResult MappingReconciler::Reconcile(const std::string& /*key*/) {
  auto classes = stores_.classes.List();
  auto nodes = stores_.nodes.List();
  auto mapping = ExtendedResourceMapping::Build(classes);
  auto unevaluated = Unevaluated(classes);
  auto findings = MappingAudit::Run(classes, nodes, mapping, inventory_, unevaluated);
  CarryOver(unevaluated, findings);
  auto hazards = Hazards(classes, nodes, mapping);
  findings.insert(findings.end(), hazards.begin(), hazards.end());
  reporter_.Report(findings);
  {
    std::lock_guard lock(mu_);
    findings_ = findings;
  }
  if (repair_ && !hazards.empty()) Repair(hazards);
  if (!unevaluated.empty()) return kube::ReconcileResult::RequeueAfter(kEvaluationWait);
  if (Has(findings, Kind::kNoDevices) || Has(findings, Kind::kOrderHazard)) {
    return kube::ReconcileResult::RequeueAfter(kRecheck);
  }
  return kube::ReconcileResult::Done();
}

// Classes whose current version the inventory has not applied yet: its
// informer handler runs on its own thread and may lag this reconcile.
MappingAudit::ClassNames MappingReconciler::Unevaluated(
    const std::vector<ClassPtr>& classes) const {
  std::map<std::string, std::string, std::less<>> evaluated;  // class -> resourceVersion
  for (const auto& c : inventory_.ClassObjects()) {
    if (c) evaluated.emplace(c->meta.name, c->meta.resource_version.str());
  }
  MappingAudit::ClassNames out;
  for (const auto& c : classes) {
    if (!c || !c->extended_resource_name) continue;
    auto it = evaluated.find(c->meta.name);
    if (it == evaluated.end() || it->second != c->meta.resource_version.str()) {
      out.insert(c->meta.name);
    }
  }
  return out;
}

// A class not evaluated yet keeps the device verdict it had.
void MappingReconciler::CarryOver(const MappingAudit::ClassNames& unevaluated,
                                  std::vector<MappingFinding>& findings) const {
  if (unevaluated.empty()) return;
  std::lock_guard lock(mu_);
  for (const auto& previous : findings_) {
    if (previous.kind == Kind::kNoDevices && unevaluated.contains(previous.object_name)) {
      findings.push_back(previous);
    }
  }
}

// The hazards this process saw happen, and those Pending Pods show: one
// finding per class and resource, the tracker's (it names the departed
// winner) first.
std::vector<MappingFinding> MappingReconciler::Hazards(
    const std::vector<ClassPtr>& classes,
    const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
    const ExtendedResourceMapping& mapping) {
  auto out = hazards_.Observe(classes, mapping);
  if (stores_.pods == nullptr) return out;
  std::map<std::string, std::string> versions;  // class -> resourceVersion
  for (const auto& c : classes) {
    if (c) versions.emplace(c->meta.name, c->meta.resource_version.str());
  }
  std::set<std::string> keys;
  for (const auto& f : out) keys.insert(f.Key());
  std::map<std::string, Sighting> seen_now;
  for (const auto& pod : stores_.pods->List()) {
    if (!pod || !MayShowHazard(*pod)) continue;
    for (const auto& seen : SchedulerMappingEvidence::FromPod(*pod, mapping, nodes)) {
      if (!Current(seen, pod->scheduled->message, versions[seen.device_class], seen_now)) continue;
      auto finding = SchedulerMappingEvidence::Finding(seen);
      if (keys.insert(finding.Key()).second) out.push_back(std::move(finding));
    }
  }
  sightings_ = std::move(seen_now);
  return out;
}

// A Pod's refusal is evidence while the class that serves the resource is at
// the version it had when the refusal was first seen. Once the class changed
// (a repair, or any update), kube-scheduler has re-read it, and the Pod keeps
// its old message until the scheduler retries it, which can take minutes.
bool MappingReconciler::Current(const UnmappedResource& seen, const std::string& message,
                                const std::string& class_version,
                                std::map<std::string, Sighting>& seen_now) const {
  std::string key = seen.pod + "|" + seen.resource;
  Sighting sighting{message, class_version};
  if (auto it = sightings_.find(key); it != sightings_.end() && it->second.message == message) {
    sighting = it->second;
  }
  seen_now[key] = sighting;
  return sighting.class_version == class_version;
}

void MappingReconciler::Repair(const std::vector<MappingFinding>& hazards) {
  auto now = clock_->Now();
  for (const auto& hazard : hazards) {
    auto last = repaired_at_.find(hazard.object_name);
    if (last != repaired_at_.end() && now - last->second < kRepairInterval) continue;
    kube::Status status = repair_(hazard.object_name);
    if (!status.ok()) {
      spdlog::warn("extended resources: repairing the mapping of {} on DeviceClass {} failed: {}",
                   hazard.resource, hazard.object_name, status.message());
      continue;
    }
    repaired_at_[hazard.object_name] = now;
    spdlog::info("extended resources: annotated DeviceClass {} so the scheduler maps {} again",
                 hazard.object_name, hazard.resource);
    if (event_) {
      event_(FindingReporter::ReferenceTo(hazard), kube::kEventTypeNormal,
             "ExtendedResourceMappingRepaired",
             "Annotated DeviceClass " + hazard.object_name +
                 " so that kube-scheduler re-reads it and maps " + hazard.resource + " to it");
    }
  }
}

std::vector<MappingFinding> MappingReconciler::findings() const {
  std::lock_guard lock(mu_);
  return findings_;
}

}  // namespace dra::extended
