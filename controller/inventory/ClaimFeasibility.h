#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "controller/api/ResourceClaim.h"
#include "controller/cel/ProgramCache.h"
#include "controller/inventory/AllocationState.h"
#include "controller/inventory/ClaimSearch.h"
#include "controller/inventory/ClassIndex.h"
#include "controller/inventory/ClassUnusable.h"
#include "controller/inventory/CounterLedger.h"
#include "controller/inventory/DeviceTable.h"
#include "controller/inventory/PoolTracker.h"

namespace dra::inventory {

// Whether a whole claim could be allocated on a node (Inventory::CheckClaim).
struct ClaimFit {
  bool fits = false;
  // The allocator returns an error instead of a verdict: the scheduler's
  // Filter then aborts the Pod's scheduling attempt, on every node. E.g. an
  // allocationMode All request while an incomplete or invalid pool reaches
  // the node, or a selector failing at runtime.
  bool aborts = false;
  // Why it does not fit or aborts; empty when it fits.
  std::string reason;
  // One allocation that fits: "<request>[/<subrequest>] <driver>/<pool>/<device>".
  std::vector<std::string> devices;
  // The search stopped at ClaimSearch::kMaxSteps device attempts; `fits` is
  // false then but the allocator might still find a solution.
  bool search_limit_reached = false;
};

// The claim-level check of the v1.37.2 allocator with the default feature
// gates (the "incubating" implementation in
// structured/internal/incubating/allocator_incubating.go): validation of
// every request and subrequest first (validateDeviceRequest, whose errors
// abort), then the search (ClaimSearch). A short-lived view over the
// Inventory's state, read under its lock.
class ClaimFeasibility {
 public:
  using TaintsOf = std::function<std::vector<api::DeviceTaint>(const DeviceTable::Entry&)>;
  using UnusableOn =
      std::function<std::optional<ClassUnusable>(const ClassState&, std::string_view node)>;

  struct View {
    const DeviceTable& entries;
    const ClassIndex& classes;
    const PoolTracker& pools;
    const AllocationState& allocations;
    const CounterLedger& counters;
    cel::ProgramCache& programs;
    TaintsOf taints;
    UnusableOn unusable;
  };

  explicit ClaimFeasibility(View view) : view_(std::move(view)) {}

  ClaimFit Check(const api::ResourceClaim& claim, std::string_view node) const;

 private:
  using ExactRequest = api::ResourceClaim::ExactRequest;

  // The devices that reach the node, in a stable order, and their pools.
  struct NodeDevices {
    std::vector<DeviceId> ids;
    std::set<std::string> pools;
  };

  NodeDevices OnNode(std::string_view node) const;
  // Fills `out` for one (sub)request; false with `fit` set when the
  // allocator would stop (an error, or a request that cannot be served).
  bool Prepare(const ExactRequest& request, const std::string& name, std::string_view node,
               const NodeDevices& devices, SearchRequest& out, ClaimFit& fit) const;
  // The reason a claim that does not fit gives: the first request that
  // cannot be served alone, or that they cannot be served together.
  std::string Why(const std::vector<SearchAlternatives>& requests) const;
  SearchDevice Describe(const DeviceTable::Entry& entry, const ExactRequest& request) const;

  View view_;
};

}  // namespace dra::inventory
