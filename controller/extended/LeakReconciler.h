#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/extended/FindingReporter.h"
#include "src/base/Clock.h"
#include "src/cache/StoreReader.h"
#include "src/queue/Reconciler.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Gauge;
}  // namespace prometheus

namespace dra::extended {

// The leak audit, keyed by claim: an allocated implicit claim whose owner Pod
// is gone, replaced or finished for longer than `grace` (the garbage collector
// and the claim controller normally release it well before) gets one Warning
// Event ExtendedResourceClaimLeaked and a log line, and is counted in the
// gauge dra_controller_extended_resource_leaked_claims; the count drops when
// the claim is released or deleted. Claims are never deleted here.
class LeakReconciler : public kube::Reconciler {
 public:
  LeakReconciler(const kube::StoreReader<api::ResourceClaim>& claims,
                 const kube::StoreReader<api::PodView>& pods, FindingReporter::EventFn event,
                 std::shared_ptr<kube::Clock> clock, std::chrono::seconds grace,
                 const std::shared_ptr<prometheus::Registry>& registry);

  kube::ReconcileResult Reconcile(const std::string& key) override;

  size_t leaked() const;

 private:
  struct Suspect {
    kube::Clock::TimePoint since;
    bool reported = false;
  };

  void Clear(const std::string& key);
  void UpdateGauge();

  const kube::StoreReader<api::ResourceClaim>& claims_;
  const kube::StoreReader<api::PodView>& pods_;
  FindingReporter::EventFn event_;
  std::shared_ptr<kube::Clock> clock_;
  std::chrono::seconds grace_;
  prometheus::Family<prometheus::Gauge>* gauge_ = nullptr;
  mutable std::mutex mu_;
  std::map<std::string, Suspect> suspects_;  // by claim key
};

}  // namespace dra::extended
