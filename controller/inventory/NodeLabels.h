#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "controller/api/NodeSelector.h"
#include "controller/api/ResourceSlice.h"

namespace dra::inventory {

// The labels of every known Node, and for each node selector that devices
// of the inventory sit behind (a slice's `nodeSelector` or a device's own
// under `perDeviceNodeSelection`) the nodes it picks. Selectors are
// evaluated when they are registered (against every node) and when a node
// appears or its labels change (each selector against that node only), never
// by a query. Not thread-safe: the Inventory calls it under its lock.
class NodeLabels {
 public:
  using DeviceId = uint32_t;
  using Labels = api::NodeSelector::Labels;

  // The selector `device` of `slice` sits behind, or nullptr when it has a
  // node name or serves all nodes (or the slice names no selection).
  static const api::NodeSelector* SelectorOf(const api::ResourceSlice& slice,
                                             const api::Device& device);

  // Returns false when the node was known with these labels (nothing to do).
  bool ApplyNode(const std::string& name,
                 std::span<const std::pair<std::string, std::string>> labels);
  void RemoveNode(std::string_view name);

  // Device `id` sits behind `selector`, which must stay alive (the slice
  // holding it does) until RemoveDevice.
  void AddDevice(const api::NodeSelector& selector, DeviceId id);
  void RemoveDevice(const api::NodeSelector& selector, DeviceId id);

  // Appends the devices behind a selector that picks `node`.
  void AppendDevicesOn(std::string_view node, std::vector<DeviceId>& out) const;
  // The known nodes `selector` picks, sorted (evaluated now when the
  // selector is not registered).
  std::vector<std::string_view> NodesPicked(const api::NodeSelector& selector) const;
  bool Picks(const api::NodeSelector& selector, std::string_view node) const;
  size_t node_count() const { return nodes_.size(); }
  size_t selector_count() const { return selectors_.size(); }

 private:
  struct SelectorEntry {
    std::vector<DeviceId> devices;
    std::set<std::string_view> nodes;  // views of nodes_' keys
  };

  void Evaluate(const api::NodeSelector* selector, SelectorEntry& entry, std::string_view node,
                const Labels& labels);

  std::map<std::string, Labels, std::less<>> nodes_;
  std::unordered_map<const api::NodeSelector*, SelectorEntry> selectors_;
  // node -> the registered selectors that pick it
  std::unordered_map<std::string_view, std::vector<const api::NodeSelector*>> picked_by_;
};

}  // namespace dra::inventory
