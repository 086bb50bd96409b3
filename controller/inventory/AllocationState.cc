#include "controller/inventory/AllocationState.h"

#include <algorithm>

#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/PoolTracker.h"

namespace dra::inventory {
namespace {

using Result = api::ResourceClaim::AllocationResult;

std::string ResultKey(const Result& result) {
  return DeviceKey{result.driver.str(), result.pool.str(), result.device.str()}.ToString();
}

void AddPool(std::vector<std::string>& pools, const Result& result) {
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

std::vector<std::string> AllocationState::Apply(std::shared_ptr<const api::ResourceClaim> claim) {
  std::vector<std::string> pools;
  std::string claim_key = ClaimKey(claim->meta);
  Forget(claim_key, pools);
  if (claim->allocated) {
    for (const auto& result : claim->results) {
      DeviceUse& use = uses_[ResultKey(result)];
      AddPool(pools, result);
      if (result.admin_access) {
        use.admin_claims.push_back(claim_key);
        continue;
      }
      use.claims.push_back(claim_key);
      if (result.share_id.empty()) {
        ++use.dedicated;
      } else {
        use.shares.push_back(&result);
      }
    }
  }
  claims_[claim_key] = std::move(claim);
  return pools;
}

std::vector<std::string> AllocationState::Remove(const kube::ObjectMeta& meta) {
  std::vector<std::string> pools;
  Forget(ClaimKey(meta), pools);
  return pools;
}

void AllocationState::Forget(const std::string& claim_key, std::vector<std::string>& pools) {
  auto it = claims_.find(claim_key);
  if (it == claims_.end()) return;
  const api::ResourceClaim& claim = *it->second;
  for (const auto& result : claim.results) {
    AddPool(pools, result);
    auto used = uses_.find(ResultKey(result));
    if (used == uses_.end() || !claim.allocated) continue;
    DeviceUse& use = used->second;
    std::erase(use.admin_claims, claim_key);
    std::erase(use.claims, claim_key);
    std::erase(use.shares, &result);
    if (!result.admin_access && result.share_id.empty()) --use.dedicated;
    if (Empty(use)) uses_.erase(used);
  }
  claims_.erase(it);
}

const AllocationState::DeviceUse* AllocationState::Use(const std::string& device_key) const {
  auto it = uses_.find(device_key);
  return it == uses_.end() ? nullptr : &it->second;
}

const std::vector<std::string>* AllocationState::Holders(const std::string& device_key) const {
  const DeviceUse* use = Use(device_key);
  return use == nullptr || use->claims.empty() ? nullptr : &use->claims;
}

const std::vector<std::string>* AllocationState::AdminAccessClaims(
    const std::string& device_key) const {
  const DeviceUse* use = Use(device_key);
  return use == nullptr || use->admin_claims.empty() ? nullptr : &use->admin_claims;
}

bool AllocationState::InUse(const std::string& device_key) const {
  const DeviceUse* use = Use(device_key);
  return use != nullptr && use->dedicated > 0;
}

AllocationState::Capacity AllocationState::Consumed(const std::string& device_key) const {
  Capacity sum;
  const DeviceUse* use = Use(device_key);
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

std::vector<PodUse> AllocationState::PodsUsing(const std::string& device_key,
                                               bool admin_access) const {
  std::vector<PodUse> out;
  const std::vector<std::string>* claims =
      admin_access ? AdminAccessClaims(device_key) : Holders(device_key);
  if (claims == nullptr) return out;
  for (size_t i = 0; i < claims->size(); ++i) {
    const std::string& claim_key = (*claims)[i];
    if (std::find(claims->begin(), claims->begin() + i, claim_key) != claims->begin() + i) continue;
    const auto& claim = *claims_.at(claim_key);
    for (const auto& consumer : claim.reserved_for) {
      if (consumer.resource != "pods") continue;
      out.push_back({claim.meta.namespace_name, consumer.name, consumer.uid.str(), claim.meta.name,
                     admin_access});
    }
  }
  return out;
}

void AllocationState::Visit(const std::function<void(const api::ResourceClaim&)>& visit) const {
  for (const auto& [key, claim] : claims_) visit(*claim);
}

}  // namespace dra::inventory
