#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "controller/inventory/Inventory.h"
#include "controller/metrics/GaugeTable.h"

namespace dra::metrics {

// Info metrics (always 1) for joins in PromQL:
//   dra_controller_device_info{driver,pool,device,node,<attributes>} per
//   published device, with the values of the attributes the operator lists
//   (--metrics-device-attributes; "" when a device lacks one);
//   dra_controller_allocated_device_info{driver,pool,device,node,namespace,
//   claim,pod} per allocated device and reserving Pod (pod "" when none) —
//   the only family with Pod names, bounded by the device count.
class DeviceInfoCollector {
 public:
  // `attributes`: "name" (any domain) or "domain/name".
  // `reservations`: Pods reserving each claim, by "<namespace>/<name>".
  DeviceInfoCollector(
      const std::vector<std::string>& attributes,
      const std::unordered_map<std::string, std::vector<std::string>>& reservations);

  void Add(const inventory::DeviceVisit& device);
  void Render(std::string& out) const;

  // The label an attribute is exported under: the name part, characters
  // outside [a-zA-Z0-9_] as '_', prefixed "attribute_" when it would clash
  // with a fixed label or start with a digit.
  static std::string LabelFor(const std::string& attribute);

 private:
  std::string AttributeValue(const inventory::DeviceVisit& device,
                             const std::string& attribute) const;

  std::vector<std::string> attributes_;
  const std::unordered_map<std::string, std::vector<std::string>>& reservations_;
  GaugeTable info_;
  GaugeTable allocated_;
};

}  // namespace dra::metrics
