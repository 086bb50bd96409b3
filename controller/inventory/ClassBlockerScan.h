#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "controller/inventory/ClassBlockers.h"
#include "controller/inventory/ClassState.h"
#include "controller/inventory/DeviceTable.h"

namespace dra::inventory {

// Where a class is unusable. The v1.37.2 allocator
// (structured/internal/*/allocator_*.go, allocateOne -> isSelectable ->
// selectorsMatch) evaluates class selectors on each device of the pools that
// reach the node, after skipping invalid or incomplete pools and devices in
// use, and aborts (the Filter returns an error) on a runtime error instead of
// treating the device as "no match". A short-lived view over the Inventory's
// state; `evaluated` says whether the allocator gets to a device's selectors.
class ClassBlockerScan {
 public:
  using Evaluated = std::function<bool(const DeviceTable::Entry&)>;

  ClassBlockerScan(const DeviceTable& devices, Evaluated evaluated)
      : devices_(devices), evaluated_(std::move(evaluated)) {}

  // Every place the class is unusable.
  ClassBlockers All(const ClassState& cls) const;
  // All(cls).On(node), reading only the devices that reach `node`.
  std::optional<ClassUnusable> On(const ClassState& cls, std::string_view node) const;

 private:
  void Add(ClassBlockers& blockers, const ClassState& cls, DeviceId id,
           const ClassSelector::Failure& failure) const;

  const DeviceTable& devices_;
  Evaluated evaluated_;
};

}  // namespace dra::inventory
