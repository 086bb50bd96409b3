#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingFinding.h"
#include "controller/inventory/Inventory.h"

namespace dra::extended {

// The findings that follow from the current objects alone: duplicate names
// (one per losing class, naming the winner), classes matching no device, and
// device-plugin overlap (a node whose allocatable of a mapped name is > 0 and
// that publishes devices of the mapped class: one finding on the Node, one on
// the class). The order hazard needs history or the scheduler's own words:
// see OrderHazardTracker and SchedulerMappingEvidence. Classes in
// `unevaluated` (the inventory has not applied their current version yet)
// are not judged for devices: a class just created matches nothing until
// the inventory has evaluated it.
// Pure: the same inputs give the same findings, sorted by Key().
class MappingAudit {
 public:
  using ClassNames = std::set<std::string, std::less<>>;

  static std::vector<MappingFinding> Run(
      const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
      const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
      const ExtendedResourceMapping& mapping, const inventory::Inventory& inventory,
      const ClassNames& unevaluated = {});

 private:
  static void Duplicates(const ExtendedResourceMapping& mapping, std::vector<MappingFinding>& out);
  static void NoDevices(const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
                        const inventory::Inventory& inventory, const ClassNames& unevaluated,
                        std::vector<MappingFinding>& out);
  static void Overlaps(const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
                       const ExtendedResourceMapping& mapping,
                       const inventory::Inventory& inventory, std::vector<MappingFinding>& out);
};

}  // namespace dra::extended
