#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "controller/api/CounterSet.h"
#include "controller/api/Device.h"
#include "controller/inventory/AllocationState.h"

namespace dra::inventory {

// A device one (sub)request could be given on the node, with what the
// search needs to decide whether it still can once other requests of the
// claim took theirs.
struct SearchDevice {
  std::string key;      // "<driver>/<pool>/<device>"
  std::string pool_id;  // "<driver>/<pool>"
  const api::Device* device = nullptr;
  // Allocated by a claim already: whole, or (an allowMultipleAllocations
  // device) without a share. The allocator skips it unless adminAccess.
  bool in_use = false;
  // An allowMultipleAllocations device with shares already: a further share
  // does not consume its counters again.
  bool shared_in_use = false;
  bool tolerated = true;               // the request tolerates its taints
  AllocationState::Capacity consumed;  // what the existing shares consume
};

// An `exactly` request or one firstAvailable subrequest with the devices
// that pass its class and selectors on the node, in the allocator's order.
struct SearchRequest {
  std::string name;  // "<request>" or "<request>/<subrequest>"
  bool all = false;  // allocationMode All: every one of `devices`
  int64_t count = 1;
  bool admin_access = false;
  std::vector<std::pair<std::string, kube::Quantity>> capacity_requests;
  std::vector<SearchDevice> devices;
};

// One request of a claim: one alternative for `exactly`, the subrequests of
// firstAvailable in order otherwise.
using SearchAlternatives = std::vector<SearchRequest>;

// The v1.37.2 allocator's search for one claim on one node
// (structured/internal/incubating/allocator_incubating.go, allocateOne and
// allocateDevice): requests in order, the first subrequest that leads to a
// solution, and for an ExactCount request every combination of its devices,
// backtracking when a later request cannot be served. Within the claim a
// device (not allowMultipleAllocations) serves one request only, adminAccess
// included; counters consumed by the devices taken must fit in what the
// pool's allocated devices left (checkAvailableCounters); shares of an
// allowMultipleAllocations device must fit in its capacity together with
// the existing ones (CmpRequestOverCapacity). Constraints are not modelled.
// The search stops after `max_steps` device attempts (limit_reached()).
class ClaimSearch {
 public:
  // What a partitionable pool's counter sets have left after its allocated
  // devices (CounterLedger::Remaining); nullptr for a pool without any.
  using Remaining = std::function<const std::vector<api::CounterSet>*(const std::string&)>;

  static constexpr size_t kMaxSteps = 100000;
  // resource.k8s.io/v1 AllocationResultsMaxSize.
  static constexpr size_t kMaxResults = 32;

  ClaimSearch(const std::vector<SearchAlternatives>& requests, Remaining remaining,
              size_t max_steps = kMaxSteps)
      : requests_(requests), remaining_(std::move(remaining)), max_steps_(max_steps) {}

  // Whether every request gets its devices at once.
  bool Solve();
  // The solution Solve() found: (request name, device key) pairs.
  const std::vector<std::pair<std::string, std::string>>& solution() const { return results_; }
  bool limit_reached() const { return limit_reached_; }

 private:
  // What taking a device changed, to undo it when backtracking.
  struct Taken {
    bool marked = false;    // in taken_
    bool counters = false;  // added to counters_
    bool shared = false;    // added to sharing_
    bool had_share = false;
    AllocationState::Capacity share;
  };

  bool Request(size_t index);
  bool Devices(const SearchRequest& request, size_t index, int64_t taken, size_t start);
  bool All(const SearchRequest& request, size_t index);
  bool Take(const SearchRequest& request, const SearchDevice& device, Taken& taken);
  void Release(const SearchDevice& device, const Taken& taken);
  bool Step();

  // What the request would consume of each capacity; false when it does not fit.
  bool CapacityFits(const SearchRequest& request, const SearchDevice& device,
                    AllocationState::Capacity& need) const;
  bool CountersFit(const SearchDevice& device) const;
  void AddCounters(const SearchDevice& device, int sign);

  const std::vector<SearchAlternatives>& requests_;
  Remaining remaining_;
  size_t max_steps_;
  size_t steps_ = 0;
  bool limit_reached_ = false;
  std::set<std::string> taken_;                               // devices taken whole
  std::map<std::string, AllocationState::Capacity> sharing_;  // shares taken, by device
  // Counters consumed by the devices taken: pool -> (counter set, counter).
  std::map<std::string, std::map<std::pair<std::string, std::string>, kube::Quantity>> counters_;
  std::vector<std::pair<std::string, std::string>> results_;
};

}  // namespace dra::inventory
