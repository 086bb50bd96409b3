#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/extended/FindingReporter.h"
#include "controller/extended/MappingFinding.h"
#include "controller/extended/OrderHazardTracker.h"
#include "controller/inventory/Inventory.h"
#include "src/cache/StoreReader.h"
#include "src/queue/Reconciler.h"

namespace dra::extended {

// Keeps the extended-resource mapping findings current. Every DeviceClass,
// Node and ResourceSlice event enqueues the one key kKey; a reconcile reads
// the caches, computes the findings (MappingAudit + OrderHazardTracker) and
// hands them to the FindingReporter. With a `repair` function, an open order
// hazard is repaired by touching the surviving class (the function patches an
// annotation on it), and the repair is reported as an Event.
class MappingReconciler : public kube::Reconciler {
 public:
  static constexpr char kKey[] = "extended-resource-mapping";
  // Touches DeviceClass `name` so the scheduler re-reads it.
  using RepairFn = std::function<kube::Status(const std::string& class_name)>;

  MappingReconciler(const kube::StoreReader<api::DeviceClass>& classes,
                    const kube::StoreReader<api::NodeView>& nodes,
                    const inventory::Inventory& inventory, FindingReporter& reporter,
                    RepairFn repair = {}, FindingReporter::EventFn event = {});

  kube::ReconcileResult Reconcile(const std::string& key) override;

  // The findings of the latest reconcile.
  std::vector<MappingFinding> findings() const;

 private:
  void Repair(const std::vector<MappingFinding>& hazards);

  const kube::StoreReader<api::DeviceClass>& classes_;
  const kube::StoreReader<api::NodeView>& nodes_;
  const inventory::Inventory& inventory_;
  FindingReporter& reporter_;
  RepairFn repair_;
  FindingReporter::EventFn event_;
  OrderHazardTracker hazards_;
  mutable std::mutex mu_;  // guards findings_
  std::vector<MappingFinding> findings_;
};

}  // namespace dra::extended
