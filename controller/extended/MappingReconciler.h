#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/FindingReporter.h"
#include "controller/extended/MappingAudit.h"
#include "controller/extended/MappingFinding.h"
#include "controller/extended/OrderHazardTracker.h"
#include "controller/extended/SchedulerMappingEvidence.h"
#include "controller/inventory/Inventory.h"
#include "src/base/Clock.h"
#include "src/cache/StoreReader.h"
#include "src/queue/Reconciler.h"

namespace dra::extended {

// Keeps the extended-resource mapping findings current. Every DeviceClass,
// Node and ResourceSlice event, and every Pod the scheduler refused with
// "Insufficient", enqueues the one key kKey; a reconcile reads the caches,
// computes the findings (MappingAudit, OrderHazardTracker for what this
// process saw, SchedulerMappingEvidence for what Pending Pods show, which a
// restarted controller or another replica reads the same way) and hands them
// to the FindingReporter. A Pod's refusal stops counting once the serving
// class has been updated since it was first seen (the scheduler re-read the
// class; the Pod keeps its message until it is retried); a controller that
// starts anew counts it once more. A class the inventory has not evaluated yet keeps
// its previous device verdict and the key is requeued until it has; open
// findings that the inventory or the scheduler settle without an event of
// their own (no devices, a hazard seen on Pods) are re-checked periodically.
// With a `repair` function, an open order hazard is repaired by touching the
// surviving class (the function patches an annotation on it) at most once
// per `kRepairInterval` per class, and the repair is reported as an Event.
class MappingReconciler : public kube::Reconciler {
 public:
  static constexpr char kKey[] = "extended-resource-mapping";
  static constexpr std::chrono::milliseconds kEvaluationWait{200};
  static constexpr std::chrono::seconds kRecheck{5};
  // Pods refused before the touch keep their message until the scheduler
  // retries them; a second touch meanwhile would change nothing.
  static constexpr std::chrono::seconds kRepairInterval{30};
  // Touches DeviceClass `name` so the scheduler re-reads it.
  using RepairFn = std::function<kube::Status(const std::string& class_name)>;

  struct Stores {
    const kube::StoreReader<api::DeviceClass>& classes;
    const kube::StoreReader<api::NodeView>& nodes;
    const kube::StoreReader<api::PodView>* pods = nullptr;  // null: no evidence from Pods
  };

  MappingReconciler(Stores stores, const inventory::Inventory& inventory, FindingReporter& reporter,
                    RepairFn repair = {}, FindingReporter::EventFn event = {},
                    std::shared_ptr<kube::Clock> clock = {});

  kube::ReconcileResult Reconcile(const std::string& key) override;

  // The findings of the latest reconcile.
  std::vector<MappingFinding> findings() const;

  // Whether a Pod event may change the findings: the scheduler refused it
  // with "Insufficient" (the Pod watch maps only those to kKey).
  static bool MayShowHazard(const api::PodView& pod);

 private:
  MappingAudit::ClassNames Unevaluated(
      const std::vector<std::shared_ptr<const api::DeviceClass>>& classes) const;
  std::vector<MappingFinding> Hazards(
      const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
      const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
      const ExtendedResourceMapping& mapping);
  struct Sighting {
    std::string message;        // the Pod's PodScheduled message
    std::string class_version;  // the serving class's resourceVersion when first seen
  };
  bool Current(const UnmappedResource& seen, const std::string& message,
               const std::string& class_version, std::map<std::string, Sighting>& seen_now) const;
  void CarryOver(const MappingAudit::ClassNames& unevaluated,
                 std::vector<MappingFinding>& findings) const;
  void Repair(const std::vector<MappingFinding>& hazards);

  Stores stores_;
  const inventory::Inventory& inventory_;
  FindingReporter& reporter_;
  RepairFn repair_;
  FindingReporter::EventFn event_;
  std::shared_ptr<kube::Clock> clock_;
  OrderHazardTracker hazards_;
  std::map<std::string, kube::Clock::TimePoint> repaired_at_;  // by class
  std::map<std::string, Sighting> sightings_;                  // by "<pod key>|<resource>"
  mutable std::mutex mu_;                                      // guards findings_
  std::vector<MappingFinding> findings_;
};

}  // namespace dra::extended
