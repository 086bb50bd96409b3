#pragma once

#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "src/base/Uid.h"

namespace dra::metrics {

// dra_controller_resource_claims{namespace,state,source}: state is reserved
// (reservedFor names a consumer), allocated (allocated, not reserved) or
// pending; source is extended_resource (the scheduler's implicit claim),
// template (made from a Pod's ResourceClaimTemplate) or user. Every
// namespace that has a claim has all nine series.
// dra_controller_implicit_claims_leaked{namespace}: implicit claims whose
// owning Pod no longer exists (only when Pods are known).
class ClaimCollector {
 public:
  void Add(const api::ResourceClaim& claim);
  // `pods`: nullptr when Pods are not watched (the leak gauge is then left out).
  void Render(std::string& out, const std::vector<std::shared_ptr<const api::PodView>>* pods) const;
  // Pods reserving each claim, by "<namespace>/<name>".
  const std::unordered_map<std::string, std::vector<std::string>>& reservations() const {
    return reservations_;
  }

 private:
  struct Implicit {
    std::string namespace_name;
    kube::Uid owner_uid;
  };

  // namespace -> counts by state index * 3 + source index
  std::map<std::string, std::array<int, 9>> counts_;
  std::unordered_map<std::string, std::vector<std::string>> reservations_;
  std::vector<Implicit> implicit_;
};

}  // namespace dra::metrics
