#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/metrics/DeviceCollector.h"

namespace dra::metrics {

// What stands in for node.status.capacity/allocatable for DRA-backed
// extended resources, per extended_resource and the device_class the
// scheduler maps it to (ExtendedResourceMapping):
//   dra_controller_extended_resource_{capacity,allocatable,allocated} for
//   every explicit spec.extendedResourceName (zeros included);
//   dra_controller_extended_resource_pods_pending: unscheduled Pods asking
//   for it (explicit or implicit name);
//   dra_controller_extended_resource_duplicate_classes{extended_resource}:
//   classes that name it but lose to the mapped one;
//   dra_controller_extended_resource_device_plugin_nodes{extended_resource}:
//   nodes where a device plugin advertises the name (the scheduler then
//   uses the device plugin there, not DRA).
class ExtendedResourceCollector {
 public:
  struct Inputs {
    const std::vector<std::shared_ptr<const api::DeviceClass>>* classes = nullptr;
    const std::map<std::string, ClassTotals>* totals = nullptr;
    const std::vector<std::shared_ptr<const api::PodView>>* pods = nullptr;    // optional
    const std::vector<std::shared_ptr<const api::NodeView>>* nodes = nullptr;  // optional
  };

  static void Render(std::string& out, const Inputs& inputs);
};

}  // namespace dra::metrics
