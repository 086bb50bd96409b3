#include "controller/inventory/ClassBlockerScan.h"

#include <algorithm>
#include <vector>

#include "controller/inventory/PoolTracker.h"

namespace dra::inventory {

void ClassBlockerScan::Add(ClassBlockers& blockers, const ClassState& cls, DeviceId id,
                           const ClassSelector::Failure& failure) const {
  const DeviceTable::Entry& device = *devices_[id];
  if (!evaluated_(device)) return;
  ClassUnusable unusable{cls.object->meta.name, device.Key(), failure.expression, failure.message};
  auto keep_smallest = [&](std::optional<ClassUnusable>& slot) {
    if (!slot || unusable.device < slot->device) slot = unusable;
  };
  keep_smallest(blockers.anywhere);
  auto block = [&](std::string_view node) {
    if (node.empty()) return keep_smallest(blockers.every_node);
    auto [it, inserted] = blockers.by_node.try_emplace(node, unusable);
    if (!inserted && unusable.device < it->second.device) it->second = unusable;
  };
  if (device.slice->node_selection == api::ResourceSlice::NodeSelection::kPerDevice) {
    // The allocator takes such a slice whole for every node one of its
    // devices serves, and evaluates selectors before a device's own node.
    for (const auto& other : device.slice->devices) {
      if (other.all_nodes || !other.node_name.empty()) {
        block(other.all_nodes ? std::string_view() : std::string_view(other.node_name));
      } else if (other.node_selector) {
        for (std::string_view node : devices_.node_labels().NodesPicked(*other.node_selector)) {
          block(node);
        }
      }
    }
    return;
  }
  if (auto node = DeviceTable::NodeKey(device)) return block(*node);
  if (auto* selector = NodeLabels::SelectorOf(*device.slice, *device.device)) {
    for (std::string_view node : devices_.node_labels().NodesPicked(*selector)) block(node);
  }
}

ClassBlockers ClassBlockerScan::All(const ClassState& cls) const {
  ClassBlockers blockers;
  if (cls.selector.has_compile_error()) {
    for (DeviceId id = 0; id < devices_.size(); ++id) {
      if (devices_[id]) Add(blockers, cls, id, cls.selector.compile_error());
    }
  }
  for (const auto& [id, text] : cls.failures) Add(blockers, cls, id, cls.failure_texts[text]);
  return blockers;
}

std::optional<ClassUnusable> ClassBlockerScan::On(const ClassState& cls,
                                                  std::string_view node) const {
  if (node.empty() || cls.selector.has_compile_error()) return All(cls).On(node);
  if (cls.failures.empty()) return std::nullopt;
  ClassBlockers blockers;
  auto check = [&](DeviceId id) {
    auto failed = cls.failures.find(id);
    if (failed != cls.failures.end()) {
      Add(blockers, cls, id, cls.failure_texts[failed->second]);
    }
  };
  std::vector<const api::ResourceSlice*> per_device;  // their devices all count here
  for (DeviceId id : devices_.Candidates(node)) {
    const api::ResourceSlice* slice = devices_[id]->slice.get();
    if (slice->node_selection != api::ResourceSlice::NodeSelection::kPerDevice) {
      check(id);
    } else if (std::find(per_device.begin(), per_device.end(), slice) == per_device.end()) {
      per_device.push_back(slice);
    }
  }
  for (const api::ResourceSlice* slice : per_device) {
    for (DeviceId id : devices_.PoolIds(PoolTracker::PoolId(slice->driver, slice->pool.name))) {
      if (devices_[id]->slice.get() == slice) check(id);
    }
  }
  return blockers.On(node);
}

}  // namespace dra::inventory
