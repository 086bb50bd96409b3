#include "controller/inventory/ClaimSearch.h"

#include <algorithm>
#include <optional>

namespace dra::inventory {
namespace {

const kube::Quantity* Find(const AllocationState::Capacity& capacity, std::string_view name) {
  for (const auto& [n, q] : capacity)
    if (n == name) return &q;
  return nullptr;
}

// a + b, or nullopt when out of range.
std::optional<kube::Quantity> Sum(const kube::Quantity& a, const kube::Quantity* b) {
  if (b == nullptr) return a;
  auto sum = a.Add(*b);
  return sum.ok() ? std::optional<kube::Quantity>(*sum) : std::nullopt;
}

void Accumulate(AllocationState::Capacity& into, const AllocationState::Capacity& what, int sign) {
  for (const auto& [name, value] : what) {
    // An init-capture: clang before 16 cannot capture a structured binding.
    auto it = std::find_if(into.begin(), into.end(),
                           [&key = name](const auto& e) { return e.first == key; });
    if (it == into.end()) it = into.insert(into.end(), {name, kube::Quantity()});
    auto next = sign > 0 ? it->second.Add(value) : it->second.Sub(value);
    if (next.ok()) it->second = *next;
  }
}

}  // namespace

bool ClaimSearch::Solve() {
  steps_ = 0;
  limit_reached_ = false;
  results_.clear();
  return Request(0);
}

bool ClaimSearch::Step() {
  if (++steps_ <= max_steps_) return true;
  limit_reached_ = true;
  return false;
}

bool ClaimSearch::Request(size_t index) {
  if (index >= requests_.size()) return true;
  for (const SearchRequest& alternative : requests_[index]) {
    bool solved = alternative.all ? All(alternative, index) : Devices(alternative, index, 0, 0);
    if (solved) return true;
    if (limit_reached_) return false;
  }
  return false;
}

bool ClaimSearch::Devices(const SearchRequest& request, size_t index, int64_t taken, size_t start) {
  if (taken >= request.count) return Request(index + 1);
  if (results_.size() + static_cast<size_t>(request.count - taken) > kMaxResults) return false;
  for (size_t i = start; i < request.devices.size(); ++i) {
    if (!Step()) return false;
    const SearchDevice& device = request.devices[i];
    Taken undo;
    if (!Take(request, device, undo)) continue;
    if (Devices(request, index, taken + 1, i + 1)) return true;
    Release(device, undo);
    if (limit_reached_) return false;
  }
  return false;
}

// Every device of an All request must be taken; the order does not matter,
// so there is nothing to backtrack over within the request.
bool ClaimSearch::All(const SearchRequest& request, size_t index) {
  if (request.devices.empty()) return false;
  if (results_.size() + request.devices.size() > kMaxResults) return false;
  std::vector<Taken> undo(request.devices.size());
  size_t taken = 0;
  while (taken < request.devices.size() && Step() &&
         Take(request, request.devices[taken], undo[taken])) {
    ++taken;
  }
  if (taken == request.devices.size() && Request(index + 1)) return true;
  while (taken > 0) {
    --taken;
    Release(request.devices[taken], undo[taken]);
  }
  return false;
}

bool ClaimSearch::Take(const SearchRequest& request, const SearchDevice& device, Taken& taken) {
  const bool shared = device.device->allow_multiple_allocations;
  const bool admin = request.admin_access;
  // Within the claim a device serves one request, adminAccess or not.
  if (!shared && taken_.contains(device.key)) return false;
  if (!admin && device.in_use) return false;
  if (!device.tolerated) return false;
  AllocationState::Capacity need;
  if (!CapacityFits(request, device, need)) return false;
  bool skip_counters = shared && (device.shared_in_use || sharing_.contains(device.key));
  if (!skip_counters && !device.device->consumes_counters.empty()) {
    if (!CountersFit(device)) return false;
    AddCounters(device, +1);
    taken.counters = true;
  }
  if (shared) {
    taken.had_share = sharing_.contains(device.key);
    Accumulate(sharing_[device.key], need, +1);
    taken.shared = true;
    taken.share = std::move(need);
  } else {
    taken_.insert(device.key);
    taken.marked = true;
  }
  results_.emplace_back(request.name, device.key);
  return true;
}

void ClaimSearch::Release(const SearchDevice& device, const Taken& taken) {
  results_.pop_back();
  if (taken.marked) taken_.erase(device.key);
  if (taken.shared) {
    if (taken.had_share) {
      Accumulate(sharing_[device.key], taken.share, -1);
    } else {
      sharing_.erase(device.key);
    }
  }
  if (taken.counters) AddCounters(device, -1);
}

// Every capacity must take what the request consumes of it on top of the
// existing shares and those taken in this claim; a request naming a
// capacity the device lacks does not fit.
bool ClaimSearch::CapacityFits(const SearchRequest& request, const SearchDevice& device,
                               AllocationState::Capacity& need) const {
  const api::Device& d = *device.device;
  for (const auto& [name, quantity] : request.capacity_requests) {
    if (d.FindCapacity(name) == nullptr) return false;
  }
  auto sharing = sharing_.find(device.key);
  for (const auto& [name, value] : d.capacity) {
    const kube::Quantity* requested = Find(request.capacity_requests, name);
    auto consumption = api::CapacityPolicy::Consumption(
        d.FindCapacityPolicy(name), value,
        requested != nullptr ? std::optional<kube::Quantity>(*requested) : std::nullopt);
    if (!consumption) return false;
    auto total = Sum(*consumption, Find(device.consumed, name));
    if (total && sharing != sharing_.end()) total = Sum(*total, Find(sharing->second, name));
    if (!total || *total > value) return false;
    need.emplace_back(name, *consumption);
  }
  return true;
}

// After the device, every counter of its pool must still cover what the
// devices taken consume; one already overdrawn blocks any device that
// consumes counters, as checkAvailableCounters does.
bool ClaimSearch::CountersFit(const SearchDevice& device) const {
  const std::vector<api::CounterSet>* left = remaining_(device.pool_id);
  if (left == nullptr) return true;  // no counter sets: the pool is invalid then
  auto consumed = counters_.find(device.pool_id);
  for (const auto& set : *left) {
    const api::CounterSet* wants = nullptr;
    for (const auto& c : device.device->consumes_counters)
      if (c.name == set.name) wants = &c;
    for (const auto& [counter, available] : set.counters) {
      kube::Quantity used;
      if (consumed != counters_.end()) {
        auto it = consumed->second.find({set.name, counter});
        if (it != consumed->second.end()) used = it->second;
      }
      auto total = Sum(used, wants != nullptr ? wants->Find(counter) : nullptr);
      if (!total || available < *total) return false;
    }
  }
  return true;
}

void ClaimSearch::AddCounters(const SearchDevice& device, int sign) {
  auto& pool = counters_[device.pool_id];
  for (const auto& set : device.device->consumes_counters) {
    for (const auto& [counter, value] : set.counters) {
      kube::Quantity& used = pool[{set.name, counter}];
      auto next = sign > 0 ? used.Add(value) : used.Sub(value);
      if (next.ok()) used = *next;
    }
  }
}

}  // namespace dra::inventory
