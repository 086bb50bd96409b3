#include "controller/health/ExtendedResourcePodEvictor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "controller/health/EvictionTolerance.h"
#include "controller/health/TaintRuleBuilder.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::health {
namespace {

std::string ClaimKey(std::string_view ns, std::string_view name) {
  return std::string(ns) + "/" + std::string(name);
}

std::vector<inventory::DeviceInfo> RuleDevices(const inventory::Inventory& inventory,
                                               const api::DeviceTaintRule::Selector& selector) {
  if (selector.driver.empty() || selector.pool.empty()) return {};  // not a rule we write
  if (selector.device.empty()) return inventory.PoolDevices(selector.driver, selector.pool);
  auto found = inventory.Find({selector.driver, selector.pool, selector.device});
  if (!found.has_value()) return {};
  return {std::move(*found)};
}

ScopeView RuleScope(const inventory::Inventory& inventory, const api::DeviceTaintRule& rule) {
  ScopeView scope;
  scope.devices = RuleDevices(inventory, *rule.selector);
  std::set<std::string> seen;
  for (const auto& device : scope.devices) {
    for (auto& pod : inventory.PodsUsing(device.key)) {
      if (seen.insert(pod.namespace_name + "/" + pod.name).second) {
        scope.pods.push_back(std::move(pod));
      }
    }
  }
  return scope;
}

// When the eviction controller would evict for `taint` on a device allocated
// with `tolerations` that do not tolerate it for good: when the taint was
// added, plus the smallest tolerationSeconds of a matching NoExecute
// toleration (v1.36.3 device_taint_eviction.go:1219, claimEvictionTime).
int64_t EvictionTime(std::span<const api::DeviceToleration> tolerations,
                     const api::DeviceTaint& taint) {
  std::optional<int64_t> seconds;
  for (const auto& t : tolerations) {
    if (t.effect != api::TaintEffect::kNoExecute || !t.Tolerates(taint)) continue;
    int64_t s = std::max<int64_t>(0, t.toleration_seconds.value_or(0));
    seconds = std::min(seconds.value_or(s), s);
  }
  return taint.time_added + seconds.value_or(0);
}

// The implicit extended-resource claims holding a device of `rule` they do
// not tolerate for good: that device and when the Pod is due for eviction
// (the earliest over its devices).
std::map<std::string, std::pair<std::string, int64_t>> ExtendedClaimDevices(
    const inventory::Inventory& inventory, const api::DeviceTaintRule& rule) {
  std::map<std::string, std::pair<std::string, int64_t>> due;
  inventory.VisitClaims([&](const api::ResourceClaim& claim) {
    if (!claim.extended_resource_claim) return;
    for (const auto& r : claim.results) {
      if (r.admin_access || !rule.Matches(r.driver.view(), r.pool.view(), r.device.view()))
        continue;
      std::span<const api::DeviceToleration> tolerations(r.tolerations.begin(),
                                                         r.tolerations.end());
      if (EvictionTolerance::ToleratesForGood(tolerations, rule.taint)) continue;
      int64_t when = EvictionTime(tolerations, rule.taint);
      std::string device = r.driver.str() + "/" + r.pool.str() + "/" + r.device.str();
      auto [it, added] =
          due.try_emplace(ClaimKey(claim.meta.namespace_name, claim.meta.name), device, when);
      if (!added && when < it->second.second) it->second = {device, when};
    }
  });
  return due;
}

}  // namespace

ExtendedResourcePodEvictor::ExtendedResourcePodEvictor(
    const kube::StoreReader<api::DeviceTaintRule>& rules, const inventory::Inventory& inventory,
    std::shared_ptr<PodEvictor> evictor, EventSink events, std::shared_ptr<kube::Clock> clock,
    Rate rate, const std::shared_ptr<prometheus::Registry>& registry)
    : rules_(rules),
      inventory_(inventory),
      evictor_(std::move(evictor)),
      events_(std::move(events)),
      clock_(std::move(clock)),
      token_interval_(
          rate.per_second > 0 ? static_cast<int64_t>(std::llround(1e9 / rate.per_second)) : 0),
      bucket_(rate.burst, token_interval_, clock_->Now().time_since_epoch()) {
  if (!registry) return;
  auto family = kube::MetricFamilyCache::Counter(
      registry, "dra_controller_health_extended_resource_evictions_total",
      "Pods of extended-resource claims dra-controller asked to evict for its NoExecute "
      "DeviceTaintRules, by outcome (evicted, gone, blocked by a PodDisruptionBudget, failed)",
      {"outcome"});
  if (family.ok()) outcomes_ = *family;
}

bool ExtendedResourcePodEvictor::Governs(const api::DeviceTaintRule& rule) {
  return !TaintRuleBuilder::OwnerOf(rule).empty() && rule.selector.has_value() &&
         rule.taint.EffectiveEffect() == api::TaintEffect::kNoExecute;
}

std::vector<EvictionTarget> ExtendedResourcePodEvictor::Targets(
    const inventory::Inventory& inventory, const api::DeviceTaintRule& rule) {
  if (!Governs(rule)) return {};
  ScopeView scope = RuleScope(inventory, rule);
  if (scope.pods.empty()) return {};
  auto extended = ExtendedClaimDevices(inventory, rule);
  std::vector<EvictionTarget> targets;
  for (auto& pod : EvictionTolerance::Evicted(inventory, scope, rule.taint)) {
    auto device = extended.find(ClaimKey(pod.namespace_name, pod.claim_name));
    if (device == extended.end() || pod.admin_access) continue;
    targets.push_back({std::move(pod), device->second.first, device->second.second});
  }
  return targets;
}

kube::ReconcileResult ExtendedResourcePodEvictor::Reconcile(const std::string& rule_name) {
  auto rule = rules_.Get(rule_name);
  std::vector<EvictionTarget> targets;
  if (rule) targets = Targets(inventory_, *rule);
  std::set<std::string> done = StillEvicting(rule_name, targets);
  bool blocked = false;
  kube::Status failure;
  std::optional<std::chrono::seconds> next_due;
  int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(clock_->WallNow().time_since_epoch())
          .count();
  for (const auto& target : targets) {
    if (done.contains(target.pod.uid)) continue;
    if (target.evict_at > now) {  // a tolerationSeconds still running
      std::chrono::seconds wait(target.evict_at - now);
      next_due = std::min(next_due.value_or(wait), wait);
      continue;
    }
    if (!TakeToken()) {
      auto wait = token_interval_.count() > 0 ? token_interval_ : std::chrono::seconds(1);
      return kube::ReconcileResult::RequeueAfter(
          std::chrono::duration_cast<kube::Clock::Duration>(wait));
    }
    kube::Status error;
    Outcome outcome = EvictOne(*rule, target, error);
    Count(outcome);
    if (outcome == Outcome::kEvicted || outcome == Outcome::kGone) {
      std::lock_guard lock(mu_);
      evicted_[rule_name].insert(target.pod.uid);
    }
    blocked = blocked || outcome == Outcome::kBlocked;
    if (outcome == Outcome::kFailed) failure = error;
  }
  if (!failure.ok()) return kube::ReconcileResult::Error(failure);
  if (blocked) next_due = std::min(next_due.value_or(kBlockedRetry), kBlockedRetry);
  if (next_due) return kube::ReconcileResult::RequeueAfter(*next_due);
  return kube::ReconcileResult::Done();
}

ExtendedResourcePodEvictor::Outcome ExtendedResourcePodEvictor::EvictOne(
    const api::DeviceTaintRule& rule, const EvictionTarget& target, kube::Status& error) {
  const auto& pod = target.pod;
  error = evictor_->Evict(pod.namespace_name, pod.name, pod.uid);
  if (error.code() == kube::StatusCode::kNotFound || error.code() == kube::StatusCode::kConflict) {
    return Outcome::kGone;
  }
  if (error.code() == kube::StatusCode::kTooManyRequests) {
    spdlog::info("Pod {}/{} on tainted device {} not evicted yet: {}", pod.namespace_name, pod.name,
                 target.device, error.message());
    return Outcome::kBlocked;
  }
  if (!error.ok()) {
    spdlog::warn("Pod {}/{} on tainted device {}: {}", pod.namespace_name, pod.name, target.device,
                 error.message());
    return Outcome::kFailed;
  }
  std::string message = "Evicted by dra-controller: device " + target.device +
                        " is tainted NoExecute (" + rule.taint.key + "=" + rule.taint.value +
                        ") by DeviceTaintRule " + rule.meta.name +
                        ", and this cluster's eviction controller does not evict Pods of "
                        "extended-resource claims";
  spdlog::info("evicted Pod {}/{}: {}", pod.namespace_name, pod.name, message);
  if (events_) {
    events_({"v1", "Pod", pod.namespace_name, pod.name, pod.uid, ""}, "Warning",
            "DeviceTaintEviction", message);
  }
  return Outcome::kEvicted;
}

bool ExtendedResourcePodEvictor::TakeToken() {
  std::lock_guard lock(mu_);
  return bucket_.TryTake(clock_->Now().time_since_epoch());
}

std::set<std::string> ExtendedResourcePodEvictor::StillEvicting(
    const std::string& rule_name, const std::vector<EvictionTarget>& targets) {
  std::lock_guard lock(mu_);
  auto it = evicted_.find(rule_name);
  if (it == evicted_.end()) return {};
  std::set<std::string> kept;
  for (const auto& t : targets) {
    if (it->second.contains(t.pod.uid)) kept.insert(t.pod.uid);
  }
  if (kept.empty()) {
    evicted_.erase(it);
  } else {
    it->second = kept;
  }
  return kept;
}

void ExtendedResourcePodEvictor::Count(Outcome outcome) {
  if (!outcomes_) return;
  static constexpr const char* kNames[] = {"evicted", "gone", "blocked", "failed"};
  outcomes_->Add({{"outcome", kNames[static_cast<int>(outcome)]}}).Increment();
}

}  // namespace dra::health
