#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingFinding.h"
#include "controller/inventory/Inventory.h"

namespace dra::report {

// `dra-controller mapping`: the effective extended-resource map (explicit
// names with their winning class and device counts, then every class's
// implicit name) and the findings.
class MappingReport {
 public:
  struct Entry {
    std::string resource;
    std::string device_class;
    bool is_explicit = false;
    std::vector<std::string> losers;  // other classes naming it
    int devices = 0;
    int allocated = 0;
  };

  static MappingReport Build(const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
                             const inventory::Inventory& inventory,
                             std::vector<extended::MappingFinding> findings);

  std::string FormatTable() const;
  std::string FormatJson() const;

  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<extended::MappingFinding>& findings() const { return findings_; }

 private:
  std::vector<Entry> entries_;
  std::vector<extended::MappingFinding> findings_;
};

}  // namespace dra::report
