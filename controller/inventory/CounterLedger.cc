#include "controller/inventory/CounterLedger.h"

#include <algorithm>
#include <span>

namespace dra::inventory {
namespace {

const api::CounterSet* FindSet(std::span<const api::CounterSet> sets, std::string_view name) {
  auto it = std::find_if(sets.begin(), sets.end(),
                         [&](const api::CounterSet& s) { return s.name == name; });
  return it == sets.end() ? nullptr : &*it;
}

}  // namespace

void CounterLedger::Recompute(const std::string& pool_id, const std::vector<api::CounterSet>& sets,
                              const std::vector<const api::Device*>& allocated) {
  if (sets.empty()) {
    remaining_.erase(pool_id);
    return;
  }
  std::vector<api::CounterSet> left = sets;
  for (const api::Device* device : allocated) {
    for (const auto& consumed : device->consumes_counters) {
      auto set = std::find_if(left.begin(), left.end(),
                              [&](const api::CounterSet& s) { return s.name == consumed.name; });
      if (set == left.end()) continue;  // the pool is invalid then
      for (const auto& [name, value] : consumed.counters) {
        for (auto& [counter, available] : set->counters) {
          if (counter != name) continue;
          auto rest = available.Sub(value);
          // Out of range only for absurd values; read it as nothing left.
          available = rest.ok() ? *rest : kube::Quantity::FromInt64(-1);
        }
      }
    }
  }
  remaining_[pool_id] = std::move(left);
}

bool CounterLedger::Covers(const std::string& pool_id, const api::Device& device) const {
  if (device.consumes_counters.empty()) return true;
  const std::vector<api::CounterSet>* left = Remaining(pool_id);
  if (left == nullptr) return true;  // an inconsistent pool; it is invalid
  for (const auto& set : *left) {
    const api::CounterSet* wants = FindSet(device.consumes_counters, set.name);
    for (const auto& [counter, available] : set.counters) {
      const kube::Quantity* needed = wants != nullptr ? wants->Find(counter) : nullptr;
      if (available < (needed != nullptr ? *needed : kube::Quantity())) return false;
    }
  }
  return true;
}

const std::vector<api::CounterSet>* CounterLedger::Remaining(const std::string& pool_id) const {
  auto it = remaining_.find(pool_id);
  return it == remaining_.end() ? nullptr : &it->second;
}

}  // namespace dra::inventory
