#include "controller/inventory/NodeLabels.h"

#include <algorithm>

namespace dra::inventory {

const api::NodeSelector* NodeLabels::SelectorOf(const api::ResourceSlice& slice,
                                                const api::Device& device) {
  using Selection = api::ResourceSlice::NodeSelection;
  if (slice.node_selection == Selection::kNodeSelector) return slice.node_selector.get();
  if (slice.node_selection != Selection::kPerDevice) return nullptr;
  if (device.all_nodes || !device.node_name.empty()) return nullptr;
  return device.node_selector.get();
}

bool NodeLabels::ApplyNode(const std::string& name,
                           std::span<const std::pair<std::string, std::string>> labels) {
  Labels wanted(labels.begin(), labels.end());
  auto [it, inserted] = nodes_.try_emplace(name);
  if (!inserted && it->second == wanted) return false;
  it->second = std::move(wanted);
  std::string_view node = it->first;  // stable while the node is known
  for (auto& [selector, entry] : selectors_) Evaluate(selector, entry, node, it->second);
  return true;
}

void NodeLabels::RemoveNode(std::string_view name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  auto picked = picked_by_.find(it->first);
  if (picked != picked_by_.end()) {
    for (const api::NodeSelector* selector : picked->second) {
      selectors_.at(selector).nodes.erase(it->first);
    }
    picked_by_.erase(picked);
  }
  nodes_.erase(it);
}

void NodeLabels::Evaluate(const api::NodeSelector* selector, SelectorEntry& entry,
                          std::string_view node, const Labels& labels) {
  bool picks = selector->Matches(node, labels);
  bool picked = entry.nodes.contains(node);
  if (picks == picked) return;
  auto& by_node = picked_by_[node];
  if (picks) {
    entry.nodes.insert(node);
    by_node.push_back(selector);
    return;
  }
  entry.nodes.erase(node);
  std::erase(by_node, selector);
  if (by_node.empty()) picked_by_.erase(node);
}

void NodeLabels::AddDevice(const api::NodeSelector& selector, DeviceId id) {
  auto [it, inserted] = selectors_.try_emplace(&selector);
  it->second.devices.push_back(id);
  if (!inserted) return;
  for (const auto& [node, labels] : nodes_) Evaluate(&selector, it->second, node, labels);
}

void NodeLabels::RemoveDevice(const api::NodeSelector& selector, DeviceId id) {
  auto it = selectors_.find(&selector);
  if (it == selectors_.end()) return;
  std::erase(it->second.devices, id);
  if (!it->second.devices.empty()) return;
  for (std::string_view node : it->second.nodes) {
    auto picked = picked_by_.find(node);
    std::erase(picked->second, &selector);
    if (picked->second.empty()) picked_by_.erase(picked);
  }
  selectors_.erase(it);
}

void NodeLabels::AppendDevicesOn(std::string_view node, std::vector<DeviceId>& out) const {
  auto picked = picked_by_.find(node);
  if (picked == picked_by_.end()) return;
  for (const api::NodeSelector* selector : picked->second) {
    const auto& devices = selectors_.at(selector).devices;
    out.insert(out.end(), devices.begin(), devices.end());
  }
}

std::vector<std::string_view> NodeLabels::NodesPicked(const api::NodeSelector& selector) const {
  auto it = selectors_.find(&selector);
  if (it != selectors_.end()) return {it->second.nodes.begin(), it->second.nodes.end()};
  std::vector<std::string_view> out;
  for (const auto& [node, labels] : nodes_) {
    if (selector.Matches(node, labels)) out.push_back(node);
  }
  return out;
}

bool NodeLabels::Picks(const api::NodeSelector& selector, std::string_view node) const {
  auto it = selectors_.find(&selector);
  if (it != selectors_.end()) return it->second.nodes.contains(node);
  auto labels = nodes_.find(node);
  return labels != nodes_.end() && selector.Matches(node, labels->second);
}

}  // namespace dra::inventory
