#include "controller/inventory/DeviceTable.h"

#include "controller/inventory/PoolTracker.h"

namespace dra::inventory {

std::optional<std::string_view> DeviceTable::NodeKey(const Entry& entry) {
  using Selection = api::ResourceSlice::NodeSelection;
  switch (entry.slice->node_selection) {
    case Selection::kNodeName:
      return entry.slice->node_name;
    case Selection::kAllNodes:
      return std::string_view();
    case Selection::kPerDevice:
      if (entry.device->all_nodes) return std::string_view();
      if (!entry.device->node_name.empty()) return entry.device->node_name;
      break;
    case Selection::kNodeSelector:
    case Selection::kUnspecified:
      break;
  }
  return std::nullopt;
}

DeviceId DeviceTable::Add(Entry entry) {
  DeviceId id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = static_cast<DeviceId>(entries_.size());
    entries_.emplace_back();
  }
  ++count_;
  entries_[id] = std::move(entry);
  const Entry& added = *entries_[id];
  if (auto node = NodeKey(added)) by_node_[std::string(*node)].push_back(id);
  if (auto* selector = NodeLabels::SelectorOf(*added.slice, *added.device)) {
    node_labels_.AddDevice(*selector, id);
  }
  return id;
}

void DeviceTable::Remove(DeviceId id) {
  --count_;
  if (auto node = NodeKey(*entries_[id])) {
    auto it = by_node_.find(std::string(*node));
    std::erase(it->second, id);
    if (it->second.empty()) by_node_.erase(it);
  }
  const Entry& removed = *entries_[id];
  if (auto* selector = NodeLabels::SelectorOf(*removed.slice, *removed.device)) {
    node_labels_.RemoveDevice(*selector, id);
  }
  entries_[id].reset();
  free_ids_.push_back(id);
}

const std::vector<DeviceId>& DeviceTable::PoolIds(const std::string& pool_id) const {
  static const std::vector<DeviceId> kNone;
  auto it = by_pool_.find(pool_id);
  return it == by_pool_.end() ? kNone : it->second;
}

std::map<std::string, size_t> DeviceTable::PoolSizes() const {
  std::map<std::string, size_t> sizes;
  for (const auto& [pool_id, ids] : by_pool_) sizes.emplace(pool_id, ids.size());
  return sizes;
}

void DeviceTable::SetPoolIds(const std::string& pool_id, std::vector<DeviceId> ids) {
  if (ids.empty()) {
    by_pool_.erase(pool_id);
  } else {
    by_pool_[pool_id] = std::move(ids);
  }
}

std::vector<DeviceId> DeviceTable::Candidates(std::string_view node) const {
  std::vector<DeviceId> ids;
  if (node.empty()) {
    for (DeviceId id = 0; id < entries_.size(); ++id) {
      if (entries_[id]) ids.push_back(id);
    }
    return ids;
  }
  for (std::string_view key : {node, std::string_view()}) {
    auto it = by_node_.find(std::string(key));
    if (it != by_node_.end()) ids.insert(ids.end(), it->second.begin(), it->second.end());
  }
  node_labels_.AppendDevicesOn(node, ids);
  return ids;
}

std::optional<DeviceId> DeviceTable::IdOf(const DeviceKey& key) const {
  for (DeviceId id : PoolIds(PoolTracker::PoolId(key.driver, key.pool))) {
    if (entries_[id]->device->name == key.device) return id;
  }
  return std::nullopt;
}

}  // namespace dra::inventory
