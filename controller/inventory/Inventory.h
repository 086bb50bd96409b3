#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/NodeView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/cel/ProgramCache.h"
#include "controller/inventory/AllocationState.h"
#include "controller/inventory/ChangeCounter.h"
#include "controller/inventory/ClaimFeasibility.h"
#include "controller/inventory/ClassBlockerScan.h"
#include "controller/inventory/ClassBlockers.h"
#include "controller/inventory/ClassIndex.h"
#include "controller/inventory/ClassSelector.h"
#include "controller/inventory/ClassState.h"
#include "controller/inventory/ClassUnusable.h"
#include "controller/inventory/CounterLedger.h"
#include "controller/inventory/DeviceAvailability.h"
#include "controller/inventory/DeviceCounts.h"
#include "controller/inventory/DeviceInfo.h"
#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/DeviceState.h"
#include "controller/inventory/DeviceTable.h"
#include "controller/inventory/PoolTracker.h"
#include "controller/inventory/SelectorErrorLog.h"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace dra::inventory {

// What one claim request could be given: devices of its class that also
// pass its own selectors, counted with its tolerations applied.
struct RequestCounts {
  bool class_exists = false;
  DeviceCounts counts;
  // The first failure of the request's own selectors, if any. One on a
  // device the scheduler would evaluate makes `counts.free` 0 (it aborts);
  // the class's own failures are in `counts.selector_error`.
  std::optional<ClassSelector::Failure> selector_error;
  // The request's own invalid_reason (e.g. an unknown allocationMode): it
  // cannot be allocated, so `counts.free` is 0.
  std::string invalid_reason;
};

// Which blocking effects a set of taints has.
struct TaintEffects {
  bool no_schedule = false;
  bool no_execute = false;

  bool any() const { return no_schedule || no_execute; }
};

// One device as a metrics scrape sees it (Inventory::VisitDevices); the
// references are valid only during the visit.
struct DeviceVisit {
  const api::ResourceSlice& slice;
  const api::Device& device;
  // The node the device is local to; "" for a device every node reaches or
  // one behind a node selector (which may pick several nodes).
  std::string_view node;
  bool pool_complete = true;
  bool pool_valid = true;  // see PoolStatus::invalid_reason
  // Allocatable now, taints and selectors aside (DeviceInfo::available).
  bool available = true;
  // Free, allocated, unavailable or tainted, as `devices` and `explain` see it.
  DeviceState state;
  bool no_schedule = false;    // carries a NoSchedule taint (slice or DeviceTaintRule)
  bool no_execute = false;     // carries a NoExecute taint
  TaintEffects driver_taints;  // the effects of the taints its driver published in the slice
  TaintEffects rule_taints;    // the effects of the taints DeviceTaintRules give it
  // Claims that allocated or share it; null when none.
  const AllocationState::Claims* claims = nullptr;
  // Claims naming it with adminAccess (not an allocation); null when none.
  const AllocationState::Claims* admin_access_claims = nullptr;
  const std::vector<std::string_view>& classes;  // DeviceClasses it matches, sorted
  // Those of `classes` that are unusable where the device is (a selector
  // fails on a device the scheduler evaluates there); null when none.
  const std::vector<std::string_view>* unusable = nullptr;
};

// What the cluster's devices are: which exist (newest pool generation only),
// which DeviceClasses they match, which claims hold them, which taints they
// carry. Fed incrementally with informer events; queries are cheap reads.
// Thread-safe: updates take an exclusive lock, queries a shared one.
class Inventory {
 public:
  // With `metrics`, failed selector evaluations are counted in
  // dra_controller_selector_errors_total{device_class}.
  explicit Inventory(std::shared_ptr<prometheus::Registry> metrics = nullptr);

  void ApplySlice(std::shared_ptr<const api::ResourceSlice> slice);
  void RemoveSlice(const api::ResourceSlice& slice);
  void ApplyClass(std::shared_ptr<const api::DeviceClass> device_class);
  void RemoveClass(const api::DeviceClass& device_class);
  void ApplyClaim(std::shared_ptr<const api::ResourceClaim> claim);
  void RemoveClaim(const api::ResourceClaim& claim);
  void ApplyTaintRule(std::shared_ptr<const api::DeviceTaintRule> rule);
  void RemoveTaintRule(const api::DeviceTaintRule& rule);
  // Node labels, for devices behind a node selector (see NodeLabels).
  void ApplyNode(std::shared_ptr<const api::NodeView> node);
  void RemoveNode(const api::NodeView& node);

  // Matching devices of `class_name` local to `node`, reachable from every
  // node, or behind a node selector (slice or per device) that picks `node`
  // by its labels; all devices when `node` is empty.
  // A class unusable there (see Unusable) has free = 0 and selector_error set.
  DeviceCounts Count(std::string_view class_name, std::string_view node = "") const;
  // Whether any published device matches `class_name`: Count().total > 0
  // without describing every matching device (stops at the first).
  bool AnyDeviceMatches(std::string_view class_name) const;
  // The devices that match; they still match when the class is unusable
  // there, which Unusable() tells.
  std::vector<DeviceInfo> DevicesMatching(std::string_view class_name,
                                          std::string_view node = "") const;
  // Why the scheduler cannot allocate from `class_name` on `node` (anywhere
  // when empty): a selector of the class fails on a device it evaluates
  // there, i.e. one not in use, in a complete pool, local to the node,
  // reachable from every node or behind a selector that picks it. The
  // smallest such device is named.
  std::optional<ClassUnusable> Unusable(std::string_view class_name,
                                        std::string_view node = "") const;
  // Count() for every node in one pass: key "" holds the devices every node
  // reaches (add them to a node's own figures); a device behind a node
  // selector counts under every known node it picks. A node where the class is unusable has an
  // entry (possibly with total 0) with free = 0 and selector_error set; a failure on a device every
  // node reaches marks key "" and every node's entry.
  std::map<std::string, DeviceCounts> CountPerNode(std::string_view class_name) const;
  // For an `exactly` request or a firstAvailable subrequest; `free` counts
  // devices whose taints the request tolerates.
  RequestCounts CountForRequest(const api::ResourceClaim::ExactRequest& request,
                                std::string_view node = "") const;
  // Whether the whole claim could be allocated on `node` now, as the
  // allocator decides it: all requests at once, a device serving one request
  // of the claim, counters and capacity shared by the devices taken,
  // firstAvailable alternatives tried in order (ClaimFeasibility). `aborts`
  // means the scheduler gives up on the Pod on every node.
  ClaimFit CheckClaim(const api::ResourceClaim& claim, std::string_view node) const;
  std::optional<DeviceInfo> Find(const DeviceKey& key) const;
  std::vector<DeviceInfo> Devices() const;
  // Devices() of one pool only, without describing the whole fleet.
  std::vector<DeviceInfo> PoolDevices(std::string_view driver, std::string_view pool) const;
  // Published devices per pool, "<driver>/<pool>".
  std::map<std::string, size_t> DevicesPerPool() const;
  std::vector<std::string> ClassesMatching(const DeviceKey& key) const;
  // The Pods holding the device through an allocation (not adminAccess).
  std::vector<PodUse> PodsUsing(const DeviceKey& key) const;
  // The known claim of that namespace and name; null when unknown.
  std::shared_ptr<const api::ResourceClaim> Claim(std::string_view namespace_name,
                                                  std::string_view name) const;
  // The Pods whose claims name the device with adminAccess.
  std::vector<PodUse> PodsWithAdminAccess(const DeviceKey& key) const;
  std::vector<PoolStatus> Pools() const;
  std::vector<SelectorError> SelectorErrors() const;
  uint64_t selector_error_total() const;
  size_t device_count() const;
  bool HasClass(std::string_view class_name) const;
  // Moves after every applied change (under the write lock), so a reader that
  // keeps a view of the Inventory can tell that it is stale.
  uint64_t change_count() const { return changes_.value(); }

  // ---- Allocation metrics (#10): single-pass reads for scrapes ----
  // Visits every device once, in no particular order, under one shared lock.
  // `visit` must not call back into the Inventory.
  void VisitDevices(const std::function<void(const DeviceVisit&)>& visit) const;
  // Visits every claim once, under one shared lock.
  void VisitClaims(const std::function<void(const api::ResourceClaim&)>& visit) const;
  // The DeviceClass objects, sorted by name.
  std::vector<std::shared_ptr<const api::DeviceClass>> ClassObjects() const;

  // Re-evaluates every class against every device (what a class change does
  // for one class). For benchmarks and consistency checks.
  void RecomputeAllMatches();

 private:
  using Entry = DeviceTable::Entry;

  void RebuildPool(const std::string& pool_id);
  ClassBlockerScan Scan() const;
  DeviceAvailability Availability() const;
  // Whether the scheduler would evaluate selectors on the device: not in
  // use and in a complete, valid pool.
  bool Evaluated(const Entry& entry) const;
  // What the pool's counter sets have left after its allocated devices.
  void RecomputeCounters(const std::string& pool_id);
  std::vector<DeviceInfo> MatchingLocked(const ClassState& entry, std::string_view node) const;
  std::vector<api::DeviceTaint> TaintsOf(const Entry& entry) const;
  // TaintsOf() with the source of each taint.
  void DescribeTaints(const Entry& entry, DeviceInfo& info) const;
  // The blocking effects of the device's taints, per source, without copying them.
  void TaintEffectsOf(const Entry& entry, TaintEffects& driver, TaintEffects& rule) const;
  DeviceInfo Describe(const Entry& entry) const;

  mutable std::shared_mutex mu_;
  ChangeCounter changes_;
  mutable cel::ProgramCache programs_;
  PoolTracker pools_;
  DeviceTable entries_;
  ClassIndex classes_;
  AllocationState allocations_;
  CounterLedger counters_;
  std::map<std::string, std::shared_ptr<const api::DeviceTaintRule>, std::less<>> rules_;
};

}  // namespace dra::inventory
