#include "controller/metrics/ExtendedResourceCollector.h"

#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/ImplicitClaimTranslator.h"
#include "controller/metrics/GaugeTable.h"

namespace dra::metrics {
namespace {

const std::vector<std::string> kLabels = {"extended_resource", "device_class"};

bool PendingUnscheduled(const api::PodView& pod) {
  return pod.phase == "Pending" && pod.node_name.empty() && !pod.meta.deleting;
}

}  // namespace

void ExtendedResourceCollector::Render(std::string& out, const Inputs& in) {
  auto mapping = extended::ExtendedResourceMapping::Build(*in.classes);
  GaugeTable capacity("dra_controller_extended_resource_capacity",
                      "Devices of the DeviceClass backing a DRA extended resource", kLabels);
  GaugeTable allocatable("dra_controller_extended_resource_allocatable",
                         "Devices of the backing class the scheduler could allocate now "
                         "(dra_controller_devices_allocatable)",
                         kLabels);
  GaugeTable allocated("dra_controller_extended_resource_allocated",
                       "Devices of the backing class that are allocated", kLabels);
  GaugeTable unavailable("dra_controller_extended_resource_unavailable",
                         "Devices of the backing class the scheduler cannot allocate now, by "
                         "the first reason (dra_controller_devices_unavailable)",
                         {"extended_resource", "device_class", "reason"});
  GaugeTable pending("dra_controller_extended_resource_pods_pending",
                     "Unscheduled Pending Pods asking for the extended resource", kLabels);
  GaugeTable duplicates("dra_controller_extended_resource_duplicate_classes",
                        "DeviceClasses naming the extended resource that lose to the mapped one",
                        {"extended_resource"});
  GaugeTable plugin_nodes("dra_controller_extended_resource_device_plugin_nodes",
                          "Nodes where a device plugin advertises a DRA-mapped extended resource",
                          {"extended_resource"});
  for (const auto& [resource, device_class] : mapping.explicit_names()) {
    std::vector<std::string> labels{resource, device_class};
    auto totals = in.totals->find(device_class);
    ClassTotals t = totals == in.totals->end() ? ClassTotals{} : totals->second;
    capacity.Set(labels, t.published);
    allocatable.Set(labels, t.allocatable);
    allocated.Set(labels, t.allocated);
    for (inventory::DeviceBlocker blocker : SortedReasons()) {
      unavailable.Set(
          {resource, device_class, std::string(inventory::DeviceState::ReasonLabel(blocker))},
          t.blockers[static_cast<size_t>(blocker)]);
    }
    pending.Ensure(labels);
    duplicates.Ensure({resource});
    if (in.nodes != nullptr) plugin_nodes.Ensure({resource});
  }
  for (const auto& contested : mapping.contested()) {
    duplicates.Set({contested.resource}, static_cast<double>(contested.losers.size()));
  }
  auto class_for = [&](std::string_view r) { return mapping.ClassFor(r); };
  if (in.pods != nullptr) {
    for (const auto& pod : *in.pods) {
      if (!PendingUnscheduled(*pod)) continue;
      for (const auto& r :
           extended::ImplicitClaimTranslator::DraResources(pod->containers, class_for)) {
        pending.Add({r, class_for(r).value_or("")}, 1);
      }
    }
  }
  if (in.nodes != nullptr) {
    for (const auto& node : *in.nodes) {
      for (const auto& [name, quantity] : node->allocatable_extended) {
        if (!quantity.IsZero() && mapping.explicit_names().contains(name)) {
          plugin_nodes.Add({name}, 1);
        }
      }
    }
  }
  GaugeTable::RenderAll(out,
                        {&capacity, &allocatable, &allocated, &unavailable, &pending, &duplicates});
  if (in.nodes != nullptr) plugin_nodes.Render(out);
}

}  // namespace dra::metrics
