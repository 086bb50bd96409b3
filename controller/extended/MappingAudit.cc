#include "controller/extended/MappingAudit.h"

#include <algorithm>
#include <map>

namespace dra::extended {
namespace {

using Kind = MappingFinding::Kind;

MappingFinding Finding(Kind kind, std::string object_kind, std::string object_name,
                       std::string resource, std::string other, std::string message) {
  return MappingFinding{kind,
                        std::move(object_kind),
                        std::move(object_name),
                        std::move(resource),
                        std::move(other),
                        std::move(message)};
}

// Devices of `class_name` on `node`: the node's own plus those every node reaches.
int DevicesOnNode(const std::map<std::string, inventory::DeviceCounts>& per_node,
                  const std::string& node) {
  int total = 0;
  if (auto it = per_node.find(node); it != per_node.end()) total += it->second.total;
  if (auto it = per_node.find(""); it != per_node.end()) total += it->second.total;
  return total;
}

}  // namespace

std::vector<MappingFinding> MappingAudit::Run(
    const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
    const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
    const ExtendedResourceMapping& mapping, const inventory::Inventory& inventory,
    const ClassNames& unevaluated) {
  std::vector<MappingFinding> out;
  Duplicates(mapping, out);
  NoDevices(classes, inventory, unevaluated, out);
  Overlaps(nodes, mapping, inventory, out);
  std::sort(out.begin(), out.end(),
            [](const MappingFinding& a, const MappingFinding& b) { return a.Key() < b.Key(); });
  return out;
}

void MappingAudit::Duplicates(const ExtendedResourceMapping& mapping,
                              std::vector<MappingFinding>& out) {
  for (const auto& contested : mapping.contested()) {
    for (const auto& loser : contested.losers) {
      out.push_back(Finding(
          Kind::kDuplicate, "DeviceClass", loser, contested.resource, contested.winner,
          "DeviceClass " + loser + " names extended resource " + contested.resource +
              ", which DeviceClass " + contested.winner +
              " also names and wins (newer creationTimestamp, or the smaller name on a tie); "
              "Pods asking for " +
              contested.resource + " get devices of " + contested.winner +
              ". Remove spec.extendedResourceName from one of them."));
    }
  }
}

void MappingAudit::NoDevices(const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
                             const inventory::Inventory& inventory, const ClassNames& unevaluated,
                             std::vector<MappingFinding>& out) {
  for (const auto& c : classes) {
    if (!c || !c->extended_resource_name) continue;  // only classes serving a name matter here
    if (unevaluated.contains(c->meta.name)) continue;
    if (inventory.AnyDeviceMatches(c->meta.name)) continue;
    out.push_back(Finding(
        Kind::kNoDevices, "DeviceClass", c->meta.name, *c->extended_resource_name, "",
        "DeviceClass " + c->meta.name + " serves extended resource " + *c->extended_resource_name +
            " but its selectors match no published device; Pods asking for it "
            "stay Pending."));
  }
}

void MappingAudit::Overlaps(const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
                            const ExtendedResourceMapping& mapping,
                            const inventory::Inventory& inventory,
                            std::vector<MappingFinding>& out) {
  std::map<std::string, std::map<std::string, inventory::DeviceCounts>> per_class;
  std::map<std::string, std::vector<std::string>> nodes_of_class;  // class -> overlapping nodes
  std::map<std::string, std::string> resource_of_class;
  for (const auto& node : nodes) {
    if (!node) continue;
    for (const auto& [resource, quantity] : node->allocatable_extended) {
      if (quantity.Sign() <= 0) continue;
      auto class_name = mapping.ClassFor(resource);
      if (!class_name) continue;
      auto it = per_class.find(*class_name);
      if (it == per_class.end()) {
        it = per_class.emplace(*class_name, inventory.CountPerNode(*class_name)).first;
      }
      int devices = DevicesOnNode(it->second, node->meta.name);
      if (devices == 0) continue;
      out.push_back(Finding(
          Kind::kDevicePluginOverlap, "Node", node->meta.name, resource, *class_name,
          "Node " + node->meta.name + " serves " + resource + " through a device plugin (" +
              "allocatable " + quantity.ToString() + ") and also publishes " +
              std::to_string(devices) + " DRA device(s) of DeviceClass " + *class_name +
              "; the scheduler uses the device plugin here, and the same GPUs can be handed out "
              "twice. Remove the device plugin or the DRA driver from this node."));
      nodes_of_class[*class_name].push_back(node->meta.name);
      resource_of_class[*class_name] = resource;
    }
  }
  for (auto& [class_name, names] : nodes_of_class) {
    std::sort(names.begin(), names.end());
    std::string list;
    for (size_t i = 0; i < names.size() && i < 5; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 5) list += ", ...";
    out.push_back(Finding(
        Kind::kDevicePluginOverlap, "DeviceClass", class_name, resource_of_class[class_name], "",
        std::to_string(names.size()) + " node(s) serve " + resource_of_class[class_name] +
            " through a device plugin and also publish devices of DeviceClass " + class_name +
            ": " + list));
  }
}

}  // namespace dra::extended
