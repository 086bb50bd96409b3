#include "controller/inventory/AllocationState.h"

#include <algorithm>

#include "controller/inventory/PoolTracker.h"

namespace dra::inventory {
namespace {

void AddPool(std::vector<std::string>& pools, const api::ResourceClaim::AllocationResult& result) {
  std::string id = PoolTracker::PoolId(result.driver, result.pool);
  if (std::find(pools.begin(), pools.end(), id) == pools.end()) pools.push_back(std::move(id));
}

bool Empty(const AllocationState::DeviceUse& use) {
  return use.claims.empty() && use.admin_claims.empty();
}

}  // namespace

std::string AllocationState::ClaimKey(const kube::ObjectMeta& meta) {
  return meta.namespace_name + "/" + meta.name;
}

std::vector<std::string> AllocationState::ClaimKeys(const Claims& claims) {
  std::vector<std::string> keys;
  keys.reserve(claims.size());
  for (const api::ResourceClaim* claim : claims) keys.push_back(ClaimKey(claim->meta));
  return keys;
}

std::vector<std::string> AllocationState::Apply(std::shared_ptr<const api::ResourceClaim> claim) {
  std::vector<std::string> pools;
  Forget({claim->meta.namespace_name, claim->meta.name}, pools);
  const api::ResourceClaim* held = claim.get();
  claims_.Put(std::move(claim));
  if (!held->allocated) return pools;
  for (const auto& result : held->results) {
    DeviceUse& use = uses_[KeyOf(result)];
    AddPool(pools, result);
    if (result.admin_access) {
      use.admin_claims.push_back(held);
      continue;
    }
    use.claims.push_back(held);
    if (result.share_id.empty()) {
      ++use.dedicated;
    } else {
      use.shares.push_back(&result);
    }
  }
  return pools;
}

std::vector<std::string> AllocationState::Remove(const kube::ObjectMeta& meta) {
  std::vector<std::string> pools;
  Forget({meta.namespace_name, meta.name}, pools);
  return pools;
}

void AllocationState::Forget(ClaimName name, std::vector<std::string>& pools) {
  const auto* found = claims_.Find(name.first, name.second);
  if (found == nullptr) return;
  const api::ResourceClaim* claim = found->get();
  for (const auto& result : claim->results) {
    AddPool(pools, result);
    auto used = uses_.find(DeviceKeyView{result.driver, result.pool, result.device});
    if (used == uses_.end() || !claim->allocated) continue;
    DeviceUse& use = used->second;
    std::erase(use.admin_claims, claim);
    std::erase(use.claims, claim);
    std::erase(use.shares, &result);
    if (!result.admin_access && result.share_id.empty()) --use.dedicated;
    if (Empty(use)) uses_.erase(used);
  }
  claims_.Erase(name.first, name.second);
}

const AllocationState::DeviceUse* AllocationState::Use(DeviceKeyView device) const {
  auto it = uses_.find(device);
  return it == uses_.end() ? nullptr : &it->second;
}

const AllocationState::Claims* AllocationState::Holders(DeviceKeyView device) const {
  const DeviceUse* use = Use(device);
  return use == nullptr || use->claims.empty() ? nullptr : &use->claims;
}

const AllocationState::Claims* AllocationState::AdminAccessClaims(DeviceKeyView device) const {
  const DeviceUse* use = Use(device);
  return use == nullptr || use->admin_claims.empty() ? nullptr : &use->admin_claims;
}

bool AllocationState::InUse(DeviceKeyView device) const {
  const DeviceUse* use = Use(device);
  return use != nullptr && use->dedicated > 0;
}

AllocationState::Capacity AllocationState::Consumed(DeviceKeyView device) const {
  Capacity sum;
  const DeviceUse* use = Use(device);
  if (use == nullptr) return sum;
  for (const Result* share : use->shares) {
    for (const auto& [name, quantity] : share->consumed_capacity) {
      // An init-capture: clang before 16 cannot capture a structured binding.
      auto slot = std::find_if(sum.begin(), sum.end(),
                               [&key = name](const auto& s) { return s.first == key; });
      if (slot == sum.end()) {
        sum.emplace_back(name, quantity);
      } else if (auto total = slot->second.Add(quantity); total.ok()) {
        slot->second = *total;
      }
    }
  }
  return sum;
}

std::vector<PodUse> AllocationState::PodsUsing(DeviceKeyView device, bool admin_access) const {
  std::vector<PodUse> out;
  const Claims* claims = admin_access ? AdminAccessClaims(device) : Holders(device);
  if (claims == nullptr) return out;
  for (auto it = claims->begin(); it != claims->end(); ++it) {
    if (std::find(claims->begin(), it, *it) != it) continue;  // two results, one device
    const api::ResourceClaim& claim = **it;
    for (const auto& consumer : claim.reserved_for) {
      if (consumer.resource != "pods") continue;
      out.push_back({claim.meta.namespace_name.str(), consumer.name, consumer.uid.str(),
                     claim.meta.name, admin_access});
    }
  }
  return out;
}

std::shared_ptr<const api::ResourceClaim> AllocationState::Claim(std::string_view namespace_name,
                                                                 std::string_view name) const {
  const auto* found = claims_.Find(namespace_name, name);
  return found == nullptr ? nullptr : *found;
}

void AllocationState::Visit(const std::function<void(const api::ResourceClaim&)>& visit) const {
  std::vector<const api::ResourceClaim*> sorted;
  sorted.reserve(claims_.size());
  for (const auto& claim : claims_) sorted.push_back(claim.get());
  auto name = [](const api::ResourceClaim* claim) {
    return ClaimName{claim->meta.namespace_name, claim->meta.name};
  };
  std::sort(sorted.begin(), sorted.end(), [&](auto* a, auto* b) { return name(a) < name(b); });
  for (const api::ResourceClaim* claim : sorted) visit(*claim);
}

}  // namespace dra::inventory
