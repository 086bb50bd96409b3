#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "controller/health/DeviceAttributeNames.h"
#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/Inventory.h"

namespace dra::health {

// Finds published devices the way monitoring names GPUs: by UUID, or by node
// and index. Reads every device once per call (no index is kept: lookups
// happen per alert or per DeviceHealth reconcile, not per scrape).
class DeviceLocator {
 public:
  DeviceLocator(const inventory::Inventory& inventory, const DeviceAttributeNames& names)
      : inventory_(inventory), names_(names) {}

  // Devices whose UUID attribute equals `uuid` (ASCII case ignored), of
  // `driver` only when it is not empty. Sorted; more than one is ambiguous.
  std::vector<inventory::DeviceKey> ByUuid(std::string_view driver, std::string_view uuid) const;
  // Devices local to `node` whose index attribute is the integer `index`
  // (or its decimal text), of `driver` only when it is not empty.
  std::vector<inventory::DeviceKey> ByNodeIndex(std::string_view driver, std::string_view node,
                                                int64_t index) const;

 private:
  const inventory::Inventory& inventory_;
  const DeviceAttributeNames& names_;
};

}  // namespace dra::health
