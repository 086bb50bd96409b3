#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "controller/api/ResourceSlice.h"
#include "controller/inventory/ClassState.h"
#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/NodeLabels.h"
#include "src/base/ChunkedVector.h"

namespace dra::inventory {

// The devices of the current pool generations, by DeviceId (reused after a
// removal), with indexes by pool and by node (node labels included, for the
// devices behind a node selector). Not thread-safe; the Inventory
// serializes access.
class DeviceTable {
 public:
  // Kept small (24 bytes): driver, pool and name are read from the slice.
  struct Entry {
    std::shared_ptr<const api::ResourceSlice> slice;  // keeps `device` alive
    const api::Device* device = nullptr;

    DeviceKey Key() const { return {slice->driver, slice->pool.name, device->name.str()}; }
    DeviceKeyView KeyView() const { return {slice->driver, slice->pool.name, device->name}; }
  };

  // The node a device is local to, "" for a device every node reaches, and
  // nullopt for devices behind a node selector (NodeLabels::SelectorOf).
  static std::optional<std::string_view> NodeKey(const Entry& entry);

  DeviceId Add(Entry entry);
  void Remove(DeviceId id);

  // Every id is below size(); a removed id reads as nullopt until reused.
  size_t size() const { return entries_.size(); }
  const std::optional<Entry>& operator[](DeviceId id) const { return entries_[id]; }
  size_t count() const { return count_; }

  // The ids of a pool's devices ("<driver>/<pool>"); empty when none.
  const std::vector<DeviceId>& PoolIds(const std::string& pool_id) const;
  // Devices per pool id, "<driver>/<pool>".
  std::map<std::string, size_t> PoolSizes() const;
  void SetPoolIds(const std::string& pool_id, std::vector<DeviceId> ids);
  // Ids of the devices on `node` (those every node reaches and those behind
  // a selector that picks it included); all when empty.
  std::vector<DeviceId> Candidates(std::string_view node) const;
  std::optional<DeviceId> IdOf(const DeviceKey& key) const;

  NodeLabels& node_labels() { return node_labels_; }
  const NodeLabels& node_labels() const { return node_labels_; }

 private:
  // By DeviceId. Chunked: a fleet's tens of thousands of entries do not sit
  // in a vector's doubled capacity.
  kube::ChunkedVector<std::optional<Entry>> entries_;
  std::vector<DeviceId> free_ids_;
  size_t count_ = 0;
  std::unordered_map<std::string, std::vector<DeviceId>> by_pool_;  // pool id -> ids
  std::unordered_map<std::string, std::vector<DeviceId>> by_node_;  // NodeKey -> ids
  NodeLabels node_labels_;
};

}  // namespace dra::inventory
