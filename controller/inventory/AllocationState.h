#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "controller/api/ResourceClaim.h"

namespace dra::inventory {

// A Pod that a claim holding a device is reserved for.
struct PodUse {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string claim_name;
};

// The claims the Inventory knows and the devices their allocation results
// name, keyed by device ("<driver>/<pool>/<device>", DeviceKey::ToString).
// Not thread-safe; the Inventory serializes access.
class AllocationState {
 public:
  // Adds or replaces the claim ("<namespace>/<name>"); what it held before
  // is forgotten first.
  void Apply(std::shared_ptr<const api::ResourceClaim> claim);
  void Remove(const kube::ObjectMeta& meta);

  // Claims ("<namespace>/<name>") whose allocation holds the device; null
  // when none does.
  const std::vector<std::string>* Holders(const std::string& device_key) const;
  bool InUse(const std::string& device_key) const { return Holders(device_key) != nullptr; }
  // The Pods the holders are reserved for.
  std::vector<PodUse> PodsUsing(const std::string& device_key) const;
  void Visit(const std::function<void(const api::ResourceClaim&)>& visit) const;

  static std::string ClaimKey(const kube::ObjectMeta& meta);

 private:
  void Forget(const std::string& claim_key);

  std::map<std::string, std::shared_ptr<const api::ResourceClaim>, std::less<>> claims_;
  std::unordered_map<std::string, std::vector<std::string>> holders_;  // device key -> claims
};

}  // namespace dra::inventory
