#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "controller/api/ResourceClaim.h"

namespace dra::inventory {

// A Pod that a claim naming a device is reserved for.
struct PodUse {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string claim_name;
  bool admin_access = false;  // through an adminAccess result (not an allocation)
};

// The claims the Inventory knows and what their allocation results do to each
// device, keyed "<driver>/<pool>/<device>" (DeviceKey::ToString), as the
// scheduler gathers allocated devices (dynamicresources/allocateddevices.go,
// foreachAllocatedDevice): an adminAccess result does not allocate the
// device; a result with a shareID is one share of an allowMultipleAllocations
// device and consumes its consumedCapacity; any other result allocates the
// device whole. Not thread-safe; the Inventory serializes access.
class AllocationState {
 public:
  using Capacity = std::vector<std::pair<std::string, kube::Quantity>>;

  struct DeviceUse {
    std::vector<std::string> claims;        // allocated or shared by; "<namespace>/<name>"
    std::vector<std::string> admin_claims;  // named with adminAccess only
    std::vector<const api::ResourceClaim::AllocationResult*> shares;  // with a shareID
    int dedicated = 0;                                                // results without one
  };

  // Adds or replaces the claim ("<namespace>/<name>"); what it held before
  // is forgotten first. Returns the pools ("<driver>/<pool>") its results
  // name, before and after.
  std::vector<std::string> Apply(std::shared_ptr<const api::ResourceClaim> claim);
  std::vector<std::string> Remove(const kube::ObjectMeta& meta);

  // nullptr when no claim names the device.
  const DeviceUse* Use(const std::string& device_key) const;
  // Claims that allocated or share the device; null when none.
  const std::vector<std::string>* Holders(const std::string& device_key) const;
  // Claims naming the device with adminAccess; null when none.
  const std::vector<std::string>* AdminAccessClaims(const std::string& device_key) const;
  // Allocated whole: the allocator skips it ("in use").
  bool InUse(const std::string& device_key) const;
  // Allocated whole or shared: its counters are consumed.
  bool Allocated(const std::string& device_key) const { return Holders(device_key) != nullptr; }
  // The sum of the shares' consumedCapacity, by capacity name.
  Capacity Consumed(const std::string& device_key) const;
  // The Pods the holders (or, with `admin_access`, the adminAccess claims)
  // are reserved for.
  std::vector<PodUse> PodsUsing(const std::string& device_key, bool admin_access = false) const;
  void Visit(const std::function<void(const api::ResourceClaim&)>& visit) const;

  static std::string ClaimKey(const kube::ObjectMeta& meta);

 private:
  void Forget(const std::string& claim_key, std::vector<std::string>& pools);

  std::map<std::string, std::shared_ptr<const api::ResourceClaim>, std::less<>> claims_;
  std::unordered_map<std::string, DeviceUse> uses_;
};

}  // namespace dra::inventory
