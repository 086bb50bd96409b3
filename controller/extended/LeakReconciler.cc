#include "controller/extended/LeakReconciler.h"

#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include "controller/extended/LeakAudit.h"
#include "src/events/EventRecorder.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::extended {

LeakReconciler::LeakReconciler(const kube::StoreReader<api::ResourceClaim>& claims,
                               const kube::StoreReader<api::PodView>& pods,
                               FindingReporter::EventFn event, std::shared_ptr<kube::Clock> clock,
                               std::chrono::seconds grace,
                               const std::shared_ptr<prometheus::Registry>& registry)
    : claims_(claims),
      pods_(pods),
      event_(std::move(event)),
      clock_(std::move(clock)),
      grace_(grace) {
  if (!registry) return;
  auto family = kube::MetricFamilyCache::Gauge(
      registry, "dra_controller_extended_resource_leaked_claims",
      "Allocated implicit extended-resource claims whose Pod is gone, replaced or finished for "
      "longer than the grace period");
  if (family.ok()) gauge_ = *family;
  UpdateGauge();
}

size_t LeakReconciler::leaked() const {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& [key, s] : suspects_) n += s.reported;
  return n;
}

void LeakReconciler::UpdateGauge() {
  if (gauge_ != nullptr) gauge_->Add({}).Set(static_cast<double>(leaked()));
}

void LeakReconciler::Clear(const std::string& key) {
  bool was_reported = false;
  {
    std::lock_guard lock(mu_);
    auto it = suspects_.find(key);
    if (it == suspects_.end()) return;
    was_reported = it->second.reported;
    suspects_.erase(it);
  }
  if (was_reported) spdlog::info("extended resources: leaked claim {} released", key);
  UpdateGauge();
}

kube::ReconcileResult LeakReconciler::Reconcile(const std::string& key) {
  auto claim = claims_.Get(key);
  if (!claim) {
    Clear(key);
    return kube::ReconcileResult::Done();
  }
  std::string owner = LeakAudit::OwnerKey(*claim);
  auto pod = owner.empty() ? nullptr : pods_.Get(owner);
  auto why = LeakAudit::Why(*claim, pod.get());
  if (!why) {
    Clear(key);
    return kube::ReconcileResult::Done();
  }
  auto now = clock_->Now();
  {
    std::lock_guard lock(mu_);
    auto [it, inserted] = suspects_.try_emplace(key, Suspect{now, false});
    if (it->second.reported) return kube::ReconcileResult::Done();
    auto waited = now - it->second.since;
    if (waited < grace_) return kube::ReconcileResult::RequeueAfter(grace_ - waited);
    it->second.reported = true;
  }
  std::string message = "Implicit claim " + key + " is still allocated although its " + *why +
                        "; its devices stay unavailable until kube-controller-manager (claim "
                        "controller, garbage collector) releases it";
  spdlog::warn("extended resources: {}", message);
  kube::ObjectReference ref{"resource.k8s.io/v1", "ResourceClaim", claim->meta.namespace_name,
                            claim->meta.name,     claim->meta.uid, ""};
  if (event_) event_(ref, kube::kEventTypeWarning, "ExtendedResourceClaimLeaked", message);
  UpdateGauge();
  return kube::ReconcileResult::Done();
}

}  // namespace dra::extended
