#include "controller/extended/MappingReconciler.h"

#include <spdlog/spdlog.h>

#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingAudit.h"
#include "src/events/EventRecorder.h"

namespace dra::extended {

MappingReconciler::MappingReconciler(const kube::StoreReader<api::DeviceClass>& classes,
                                     const kube::StoreReader<api::NodeView>& nodes,
                                     const inventory::Inventory& inventory,
                                     FindingReporter& reporter, RepairFn repair,
                                     FindingReporter::EventFn event)
    : classes_(classes),
      nodes_(nodes),
      inventory_(inventory),
      reporter_(reporter),
      repair_(std::move(repair)),
      event_(std::move(event)) {}

kube::ReconcileResult MappingReconciler::Reconcile(const std::string& /*key*/) {
  auto classes = classes_.List();
  auto nodes = nodes_.List();
  auto mapping = ExtendedResourceMapping::Build(classes);
  auto findings = MappingAudit::Run(classes, nodes, mapping, inventory_);
  auto hazards = hazards_.Observe(classes, mapping);
  findings.insert(findings.end(), hazards.begin(), hazards.end());
  reporter_.Report(findings);
  {
    std::lock_guard lock(mu_);
    findings_ = findings;
  }
  if (repair_ && !hazards.empty()) Repair(hazards);
  return kube::ReconcileResult::Done();
}

void MappingReconciler::Repair(const std::vector<MappingFinding>& hazards) {
  for (const auto& hazard : hazards) {
    kube::Status status = repair_(hazard.object_name);
    if (!status.ok()) {
      spdlog::warn("extended resources: repairing the mapping of {} on DeviceClass {} failed: {}",
                   hazard.resource, hazard.object_name, status.message());
      continue;
    }
    spdlog::info("extended resources: annotated DeviceClass {} so the scheduler maps {} again",
                 hazard.object_name, hazard.resource);
    if (event_) {
      event_(FindingReporter::ReferenceTo(hazard), kube::kEventTypeNormal,
             "ExtendedResourceMappingRepaired",
             "Annotated DeviceClass " + hazard.object_name +
                 " so that kube-scheduler re-reads it " + "and maps " + hazard.resource +
                 " to it again (" + hazard.other + " had won the name and left)");
    }
  }
}

std::vector<MappingFinding> MappingReconciler::findings() const {
  std::lock_guard lock(mu_);
  return findings_;
}

}  // namespace dra::extended
