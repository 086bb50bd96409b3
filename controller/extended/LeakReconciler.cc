#include "controller/extended/LeakReconciler.h"

#include <prometheus/counter.h>
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
                               const std::shared_ptr<prometheus::Registry>& registry,
                               RemoveFn remove)
    : claims_(claims),
      pods_(pods),
      event_(std::move(event)),
      clock_(std::move(clock)),
      grace_(grace),
      remove_(std::move(remove)) {
  if (!registry) return;
  auto family = kube::MetricFamilyCache::Gauge(
      registry, "dra_controller_extended_resource_leaked_claims",
      "Allocated implicit extended-resource claims whose Pod is gone, replaced or finished for "
      "longer than the grace period",
      {});
  if (family.ok()) gauge_ = *family;
  UpdateGauge();
  auto counter = kube::MetricFamilyCache::Counter(
      registry, "dra_controller_extended_resource_leaked_claims_deleted_total",
      "Leaked implicit extended-resource claims deleted by --delete-leaked-claims", {});
  if (counter.ok()) {
    deleted_counter_ = *counter;
    deleted_counter_->Add({});
  }
}

size_t LeakReconciler::deleted() const {
  std::lock_guard lock(mu_);
  return deleted_;
}

size_t LeakReconciler::leaked() const {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& [key, s] : suspects_) n += s.reported && !s.removed;
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
  bool report = false;
  {
    std::lock_guard lock(mu_);
    auto [it, inserted] = suspects_.try_emplace(key, Suspect{now, false});
    if (!it->second.reported) {
      auto waited = now - it->second.since;
      if (waited < grace_) return kube::ReconcileResult::RequeueAfter(grace_ - waited);
      it->second.reported = report = true;
    } else if (it->second.removed) {
      return kube::ReconcileResult::Done();
    }
  }
  if (report) ReportLeak(key, *claim, *why);
  if (!remove_) return kube::ReconcileResult::Done();
  return RemoveLeak(key, *claim);
}

void LeakReconciler::ReportLeak(const std::string& key, const api::ResourceClaim& claim,
                                const std::string& why) {
  std::string message = "Implicit claim " + key + " is still allocated although its " + why +
                        "; its devices stay unavailable until kube-controller-manager (claim "
                        "controller, garbage collector) releases it";
  if (remove_) message += " or --delete-leaked-claims removes it";
  spdlog::warn("extended resources: {}", message);
  kube::ObjectReference ref{
      "resource.k8s.io/v1", "ResourceClaim",      claim.meta.namespace_name.str(),
      claim.meta.name,      claim.meta.uid.str(), ""};
  if (event_) event_(ref, kube::kEventTypeWarning, "ExtendedResourceClaimLeaked", message);
  UpdateGauge();
}

kube::ReconcileResult LeakReconciler::RemoveLeak(const std::string& key,
                                                 const api::ResourceClaim& claim) {
  auto outcome = remove_(claim);
  if (!outcome.ok()) {
    spdlog::warn("extended resources: leaked claim {} not removed yet: {}", key,
                 outcome.status().message());
    return kube::ReconcileResult::Error(outcome.status());
  }
  if (*outcome == LeakedClaimRemover::Outcome::kKept) {
    spdlog::info("extended resources: leaked claim {} kept: the API server shows it in use", key);
    return kube::ReconcileResult::Done();
  }
  {
    std::lock_guard lock(mu_);
    suspects_[key].removed = true;
    if (*outcome == LeakedClaimRemover::Outcome::kRemoved) ++deleted_;
  }
  UpdateGauge();
  if (*outcome != LeakedClaimRemover::Outcome::kRemoved) return kube::ReconcileResult::Done();
  if (deleted_counter_ != nullptr) deleted_counter_->Add({}).Increment();
  std::string message =
      "Deleted leaked implicit claim " + key + " (--delete-leaked-claims), releasing its devices";
  spdlog::info("extended resources: {}", message);
  kube::ObjectReference ref{
      "resource.k8s.io/v1", "ResourceClaim",      claim.meta.namespace_name.str(),
      claim.meta.name,      claim.meta.uid.str(), ""};
  if (event_) event_(ref, kube::kEventTypeNormal, "ExtendedResourceClaimLeakDeleted", message);
  return kube::ReconcileResult::Done();
}

}  // namespace dra::extended
