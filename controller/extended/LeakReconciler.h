#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/extended/FindingReporter.h"
#include "controller/extended/LeakedClaimRemover.h"
#include "src/base/Clock.h"
#include "src/cache/StoreReader.h"
#include "src/queue/Reconciler.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Gauge;
class Counter;
}  // namespace prometheus

namespace dra::extended {

// The leak audit, keyed by claim: an allocated implicit claim whose owner Pod
// is gone, replaced or finished for longer than `grace` (the garbage collector
// and the claim controller normally release it well before) gets one Warning
// Event ExtendedResourceClaimLeaked and a log line, and is counted in the
// gauge dra_controller_extended_resource_leaked_claims; the count drops when
// the claim is released or deleted. With a `remove` function
// (--delete-leaked-claims) a reported claim is then removed through it; each
// removal gets a Normal Event ExtendedResourceClaimLeakDeleted and counts in
// dra_controller_extended_resource_leaked_claims_deleted_total. Without one,
// claims are never deleted here.
class LeakReconciler : public kube::Reconciler {
 public:
  using RemoveFn =
      std::function<kube::Result<LeakedClaimRemover::Outcome>(const api::ResourceClaim&)>;

  LeakReconciler(const kube::StoreReader<api::ResourceClaim>& claims,
                 const kube::StoreReader<api::PodView>& pods, FindingReporter::EventFn event,
                 std::shared_ptr<kube::Clock> clock, std::chrono::seconds grace,
                 const std::shared_ptr<prometheus::Registry>& registry, RemoveFn remove = {});

  kube::ReconcileResult Reconcile(const std::string& key) override;

  size_t leaked() const;
  size_t deleted() const;

 private:
  struct Suspect {
    kube::Clock::TimePoint since;
    bool reported = false;
    bool removed = false;
  };

  void Clear(const std::string& key);
  void ReportLeak(const std::string& key, const api::ResourceClaim& claim, const std::string& why);
  kube::ReconcileResult RemoveLeak(const std::string& key, const api::ResourceClaim& claim);
  void UpdateGauge();

  const kube::StoreReader<api::ResourceClaim>& claims_;
  const kube::StoreReader<api::PodView>& pods_;
  FindingReporter::EventFn event_;
  std::shared_ptr<kube::Clock> clock_;
  std::chrono::seconds grace_;
  RemoveFn remove_;
  prometheus::Family<prometheus::Gauge>* gauge_ = nullptr;
  prometheus::Family<prometheus::Counter>* deleted_counter_ = nullptr;
  mutable std::mutex mu_;
  std::map<std::string, Suspect> suspects_;  // by claim key
  size_t deleted_ = 0;
};

}  // namespace dra::extended
