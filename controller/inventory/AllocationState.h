#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "controller/api/ResourceClaim.h"
#include "controller/inventory/DeviceKeyView.h"
#include "src/base/InternedString.h"
#include "src/cache/KeyedSet.h"

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
// device, as the scheduler gathers allocated devices
// (dynamicresources/allocateddevices.go, foreachAllocatedDevice): an
// adminAccess result does not allocate the device; a result with a shareID is
// one share of an allowMultipleAllocations device and consumes its
// consumedCapacity; any other result allocates the device whole. Devices are
// keyed by their interned driver, pool and name and claims are referred to by
// pointer, so a fleet's allocations cost no string copies. Not thread-safe;
// the Inventory serializes access.
class AllocationState {
 public:
  using Capacity = std::vector<std::pair<std::string, kube::Quantity>>;
  // Claims by pointer; each lives in this state until Remove or a later Apply.
  using Claims = std::vector<const api::ResourceClaim*>;

  struct DeviceUse {
    Claims claims;                                                    // allocated or shared by
    Claims admin_claims;                                              // named with adminAccess only
    std::vector<const api::ResourceClaim::AllocationResult*> shares;  // with a shareID
    int dedicated = 0;                                                // results without one
  };

  // Adds or replaces the claim (by namespace and name); what it held before
  // is forgotten first. Returns the pools ("<driver>/<pool>") its results
  // name, before and after.
  std::vector<std::string> Apply(std::shared_ptr<const api::ResourceClaim> claim);
  std::vector<std::string> Remove(const kube::ObjectMeta& meta);

  // nullptr when no claim names the device.
  const DeviceUse* Use(DeviceKeyView device) const;
  // Claims that allocated or share the device; null when none.
  const Claims* Holders(DeviceKeyView device) const;
  // Claims naming the device with adminAccess; null when none.
  const Claims* AdminAccessClaims(DeviceKeyView device) const;
  // Allocated whole: the allocator skips it ("in use").
  bool InUse(DeviceKeyView device) const;
  // Allocated whole or shared: its counters are consumed.
  bool Allocated(DeviceKeyView device) const { return Holders(device) != nullptr; }
  // The sum of the shares' consumedCapacity, by capacity name.
  Capacity Consumed(DeviceKeyView device) const;
  // The Pods the holders (or, with `admin_access`, the adminAccess claims)
  // are reserved for.
  std::vector<PodUse> PodsUsing(DeviceKeyView device, bool admin_access = false) const;
  // The claim of that namespace and name; null when unknown.
  std::shared_ptr<const api::ResourceClaim> Claim(std::string_view namespace_name,
                                                  std::string_view name) const;
  // Claims in namespace, then name order.
  void Visit(const std::function<void(const api::ResourceClaim&)>& visit) const;

  // "<namespace>/<name>".
  static std::string ClaimKey(const kube::ObjectMeta& meta);
  // ClaimKey of each, in order.
  static std::vector<std::string> ClaimKeys(const Claims& claims);

 private:
  using Result = api::ResourceClaim::AllocationResult;
  using ClaimName = std::pair<std::string_view, std::string_view>;  // namespace, name

  // A device as allocation results name it; its texts stay interned.
  struct UseKey {
    kube::InternedString driver;
    kube::InternedString pool;
    kube::InternedString device;

    DeviceKeyView View() const { return {driver, pool, device}; }
  };
  struct UseHash {
    using is_transparent = void;
    size_t operator()(const UseKey& key) const { return key.View().Hash(); }
    size_t operator()(DeviceKeyView key) const { return key.Hash(); }
  };
  struct UseEqual {
    using is_transparent = void;
    static DeviceKeyView View(const UseKey& key) { return key.View(); }
    static DeviceKeyView View(DeviceKeyView key) { return key; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return View(a) == View(b);
    }
  };
  static UseKey KeyOf(const Result& result) { return {result.driver, result.pool, result.device}; }
  void Forget(ClaimName name, std::vector<std::string>& pools);

  kube::KeyedSet<api::ResourceClaim> claims_;  // by namespace and name
  std::unordered_map<UseKey, DeviceUse, UseHash, UseEqual> uses_;
};

}  // namespace dra::inventory
