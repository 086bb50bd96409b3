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
#include "controller/inventory/ClassSelector.h"
#include "controller/inventory/ClassUnusable.h"
#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/NodeLabels.h"
#include "controller/inventory/PoolTracker.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Counter;
}  // namespace prometheus

namespace dra::inventory {

// Matching devices of a class, optionally on one node.
struct DeviceCounts {
  int total = 0;            // in the newest generation of their pool
  int allocated = 0;        // named in at least one claim's allocation
  int free = 0;             // allocatable now by a request without tolerations
  int no_schedule = 0;      // carrying a NoSchedule taint
  int no_execute = 0;       // carrying a NoExecute taint
  int incomplete_pool = 0;  // in a pool that misses slices (not allocatable)
  // Set when a selector of the class fails on a device the scheduler would
  // evaluate here; it then aborts, so `free` is 0 however many devices match.
  std::optional<ClassUnusable> selector_error;

  friend bool operator==(const DeviceCounts&, const DeviceCounts&) = default;
};

struct DeviceInfo {
  DeviceKey key;
  std::string slice_name;
  std::string node_name;  // empty unless the device is local to one node
  bool all_nodes = false;
  bool node_selector = false;  // reachable from the nodes a slice or device selector picks
  bool pool_complete = true;
  bool allow_multiple_allocations = false;
  std::vector<api::DeviceTaint> taints;   // the slice's, then DeviceTaintRules'
  std::vector<std::string> allocated_to;  // claims, "<namespace>/<name>"
};

struct PodUse {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string claim_name;
};

// What one claim request could be given: devices of its class that also
// pass its own selectors, counted with its tolerations applied.
struct RequestCounts {
  bool class_exists = false;
  DeviceCounts counts;
  // The first failure of the request's own selectors, if any. One on a
  // device the scheduler would evaluate makes `counts.free` 0 (it aborts);
  // the class's own failures are in `counts.selector_error`.
  std::optional<ClassSelector::Failure> selector_error;
};

// A selector that failed to compile or evaluate, for reports and metrics.
struct SelectorError {
  std::string class_name;
  std::string expression;
  std::string message;  // the latest
  uint64_t count = 0;
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
  bool no_schedule = false;  // carries a NoSchedule taint (slice or DeviceTaintRule)
  bool no_execute = false;   // carries a NoExecute taint
  const std::vector<std::string>* claims = nullptr;  // "<namespace>/<name>"; null when free
  const std::vector<std::string_view>& classes;      // DeviceClasses it matches, sorted
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
  std::optional<DeviceInfo> Find(const DeviceKey& key) const;
  std::vector<DeviceInfo> Devices() const;
  std::vector<std::string> ClassesMatching(const DeviceKey& key) const;
  std::vector<PodUse> PodsUsing(const DeviceKey& key) const;
  std::vector<PoolStatus> Pools() const;
  std::vector<SelectorError> SelectorErrors() const;
  uint64_t selector_error_total() const;
  size_t device_count() const;
  bool HasClass(std::string_view class_name) const;

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
  using DeviceId = uint32_t;

  // Kept small (24 bytes): driver, pool and name are read from the slice.
  struct Entry {
    std::shared_ptr<const api::ResourceSlice> slice;  // keeps `device` alive
    const api::Device* device = nullptr;

    DeviceKey Key() const { return {slice->driver, slice->pool.name, device->name}; }
  };
  struct ClassEntry {
    std::shared_ptr<const api::DeviceClass> object;
    ClassSelector selector;
    std::vector<bool> matches;  // by DeviceId
    // Devices the selector failed on at runtime (none when healthy), each
    // with an index into `failure_texts` (distinct failures, kept until the
    // selectors change or a recompute). A compile error is not repeated
    // here: it fails on every device.
    std::unordered_map<DeviceId, uint32_t> failures;
    std::vector<ClassSelector::Failure> failure_texts;
    std::unordered_map<std::string, uint32_t> failure_index;  // expression '\n' message

    void ForgetFailures();
    void RecordFailure(DeviceId id, ClassSelector::Failure failure);
  };
  // Where a class is unusable: on every node, on some nodes, or only
  // cluster-wide (a failing device behind a node selector that picks no
  // known node).
  struct Blockers {
    std::optional<ClassUnusable> anywhere;
    std::optional<ClassUnusable> every_node;
    std::map<std::string_view, ClassUnusable> by_node;

    // `node` empty: anywhere.
    std::optional<ClassUnusable> On(std::string_view node) const;
  };

  void RebuildPool(const std::string& pool_id);
  void RemoveDevice(DeviceId id);
  DeviceId AddDevice(Entry entry);
  void EvaluateClass(ClassEntry& entry, DeviceId id, const cel::Device& device);
  void EvaluateAllClasses(DeviceId id);
  void ForgetClaim(const std::string& claim_key);
  void RecordFailure(const std::string& class_name, const ClassSelector::Failure& failure);

  const ClassEntry* FindClass(std::string_view name) const;
  Blockers BlockersOf(const ClassEntry& entry) const;
  // BlockersOf(entry).On(node), reading only the devices that reach `node`.
  std::optional<ClassUnusable> UnusableOn(const ClassEntry& entry, std::string_view node) const;
  void AddBlocker(Blockers& blockers, const ClassEntry& entry, DeviceId id,
                  const ClassSelector::Failure& failure) const;
  // Whether the scheduler would evaluate selectors on the device: not in
  // use and in a complete pool.
  bool Evaluated(const Entry& entry) const;
  std::vector<DeviceInfo> MatchingLocked(const ClassEntry& entry, std::string_view node) const;
  // Ids of the devices on `node` (and those every node reaches); all when empty.
  std::vector<DeviceId> Candidates(std::string_view node) const;
  bool Matches(const ClassEntry& entry, DeviceId id) const;
  // The node a device is local to, "" for a device every node reaches, and
  // nullopt for devices behind a node selector (NodeLabels::SelectorOf).
  static std::optional<std::string_view> NodeKey(const Entry& entry);
  std::vector<api::DeviceTaint> TaintsOf(const Entry& entry) const;
  DeviceInfo Describe(const Entry& entry) const;
  std::optional<DeviceId> IdOf(const DeviceKey& key) const;

  mutable std::shared_mutex mu_;
  mutable cel::ProgramCache programs_;
  PoolTracker pools_;
  NodeLabels node_labels_;
  std::vector<std::optional<Entry>> entries_;  // by DeviceId
  std::vector<DeviceId> free_ids_;
  size_t device_count_ = 0;
  std::unordered_map<std::string, std::vector<DeviceId>> by_pool_;  // pool id -> ids
  std::unordered_map<std::string, std::vector<DeviceId>> by_node_;  // NodeKey -> ids
  std::map<std::string, ClassEntry, std::less<>> classes_;
  std::map<std::string, std::shared_ptr<const api::ResourceClaim>, std::less<>> claims_;
  // device key text -> claims "<namespace>/<name>" holding it
  std::unordered_map<std::string, std::vector<std::string>> allocations_;
  std::map<std::string, std::shared_ptr<const api::DeviceTaintRule>, std::less<>> rules_;
  std::map<std::pair<std::string, std::string>, SelectorError> selector_errors_;
  uint64_t selector_error_total_ = 0;
  std::shared_ptr<prometheus::Registry> metrics_;  // keeps the family alive
  prometheus::Family<prometheus::Counter>* selector_error_metric_ = nullptr;
};

}  // namespace dra::inventory
