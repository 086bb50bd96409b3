#include "controller/inventory/AllocationState.h"

#include <algorithm>

#include "controller/inventory/DeviceKey.h"

namespace dra::inventory {
namespace {

std::string ResultKey(const api::ResourceClaim::AllocationResult& result) {
  return DeviceKey{result.driver, result.pool, result.device}.ToString();
}

}  // namespace

std::string AllocationState::ClaimKey(const kube::ObjectMeta& meta) {
  return meta.namespace_name + "/" + meta.name;
}

void AllocationState::Apply(std::shared_ptr<const api::ResourceClaim> claim) {
  std::string claim_key = ClaimKey(claim->meta);
  Forget(claim_key);
  if (claim->allocated) {
    for (const auto& result : claim->results) holders_[ResultKey(result)].push_back(claim_key);
  }
  claims_[claim_key] = std::move(claim);
}

void AllocationState::Remove(const kube::ObjectMeta& meta) { Forget(ClaimKey(meta)); }

void AllocationState::Forget(const std::string& claim_key) {
  auto it = claims_.find(claim_key);
  if (it == claims_.end()) return;
  for (const auto& result : it->second->results) {
    auto held = holders_.find(ResultKey(result));
    if (held == holders_.end()) continue;
    std::erase(held->second, it->first);
    if (held->second.empty()) holders_.erase(held);
  }
  claims_.erase(it);
}

const std::vector<std::string>* AllocationState::Holders(const std::string& device_key) const {
  auto it = holders_.find(device_key);
  return it == holders_.end() ? nullptr : &it->second;
}

std::vector<PodUse> AllocationState::PodsUsing(const std::string& device_key) const {
  std::vector<PodUse> out;
  const std::vector<std::string>* holders = Holders(device_key);
  if (holders == nullptr) return out;
  for (const auto& claim_key : *holders) {
    const auto& claim = *claims_.at(claim_key);
    for (const auto& consumer : claim.reserved_for) {
      if (consumer.resource != "pods") continue;
      out.push_back({claim.meta.namespace_name, consumer.name, consumer.uid, claim.meta.name});
    }
  }
  return out;
}

void AllocationState::Visit(const std::function<void(const api::ResourceClaim&)>& visit) const {
  for (const auto& [key, claim] : claims_) visit(*claim);
}

}  // namespace dra::inventory
