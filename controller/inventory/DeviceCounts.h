#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "controller/api/DeviceToleration.h"
#include "controller/inventory/ClassUnusable.h"
#include "controller/inventory/DeviceInfo.h"

namespace dra::inventory {

// Matching devices of a class, optionally on one node.
struct DeviceCounts {
  int total = 0;        // in the newest generation of their pool
  int allocated = 0;    // named in at least one claim's allocation
  int free = 0;         // allocatable now by a request without tolerations
  int no_schedule = 0;  // carrying a NoSchedule taint
  int no_execute = 0;   // carrying a NoExecute taint
  // Carrying a NoSchedule or NoExecute taint its driver published in the
  // slice; one a DeviceTaintRule gives it (a device may count in both).
  int driver_tainted = 0;
  int rule_tainted = 0;
  // The keys of those driver taints and the names of those rules, sorted,
  // each once.
  std::vector<std::string> driver_taint_keys;
  std::vector<std::string> taint_rules;
  int incomplete_pool = 0;  // in a pool that misses slices (not allocatable)
  int invalid_pool = 0;     // in a pool the allocator rejects (not allocatable)
  // Not allocated, but the shared counters they consume are used up.
  int counters_in_use = 0;
  // Set when a selector of the class fails on a device the scheduler would
  // evaluate here; it then aborts, so `free` is 0 however many devices match.
  std::optional<ClassUnusable> selector_error;

  // Counts `device` by its DeviceState; it is free when the state is, or
  // when only taints block it and `tolerations` tolerate them.
  void Add(const DeviceInfo& device, std::span<const api::DeviceToleration> tolerations = {});
  // Adds `other`'s counts (a node's own devices and those every node reaches).
  void Merge(const DeviceCounts& other);
  // With `unusable`, nothing is free and the reason is kept.
  void MarkUnusable(std::optional<ClassUnusable> unusable);

  friend bool operator==(const DeviceCounts&, const DeviceCounts&) = default;

 private:
  void AddTaintSources(const DeviceInfo& device);
};

}  // namespace dra::inventory
