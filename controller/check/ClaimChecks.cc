#include "controller/check/ClaimChecks.h"

#include <unordered_set>

#include "controller/check/ShortList.h"
#include "src/base/Uid.h"

namespace dra::check {
CheckResult ClaimChecks::DeviceConditions(const CheckInputs& in) {
  constexpr const char* kName = "claim-device-conditions";
  if (!in.claim_conditions.ok()) {
    return CheckResult::Fail(kName, "cannot list ResourceClaims: " + in.claim_conditions.error);
  }
  std::vector<std::string> not_ready;
  for (const auto& c : in.claim_conditions.value) {
    if (c.type != "Ready" || c.status == "True") continue;
    not_ready.push_back(c.claim + " " + c.device + " Ready=" + c.status +
                        (c.reason.empty() ? "" : " (" + c.reason + ")"));
  }
  if (!not_ready.empty()) return CheckResult::Fail(kName, "not ready: " + ShortList(not_ready));
  return CheckResult::Pass(kName, "no device reported not Ready");
}

CheckResult ClaimChecks::Reservations(const report::ClusterSnapshot& s) {
  constexpr const char* kName = "claim-reservations";
  std::unordered_set<kube::Uid> running;
  for (const auto& pod : s.pods) {
    if (pod->phase == "Running") running.insert(pod->meta.uid);
  }
  int allocated = 0;
  std::vector<std::string> idle;
  for (const auto& claim : s.claims) {
    if (!claim->allocated) continue;
    ++allocated;
    bool used = false;
    for (const auto& consumer : claim->reserved_for) {
      used = used || consumer.resource != "pods" || running.contains(consumer.uid);
    }
    if (!used) idle.push_back(claim->meta.namespace_name + "/" + claim->meta.name);
  }
  if (!idle.empty()) {
    return CheckResult::Warn(kName,
                             std::to_string(idle.size()) + " of " + std::to_string(allocated) +
                                 " allocated claims have no running consumer: " + ShortList(idle));
  }
  return CheckResult::Pass(kName, std::to_string(allocated) + " allocated claims, all in use");
}

}  // namespace dra::check
