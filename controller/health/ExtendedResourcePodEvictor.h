#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "controller/api/DeviceTaintRule.h"
#include "controller/health/PodEvictor.h"
#include "controller/inventory/Inventory.h"
#include "src/base/Clock.h"
#include "src/base/TokenBucket.h"
#include "src/cache/StoreReader.h"
#include "src/events/ObjectReference.h"
#include "src/queue/Reconciler.h"

namespace dra::health {

// A Pod to evict for a rule, and the tainted device its claim holds.
struct EvictionTarget {
  inventory::PodUse pod;
  std::string device;    // "driver/pool/device"
  int64_t evict_at = 0;  // seconds since the epoch: the taint's timeAdded + tolerationSeconds
};

// Does, for the DeviceTaintRules device health writes, what a cluster's
// device-taint eviction controller before 1.37 leaves undone: evicts the Pods
// whose implicit extended-resource claim holds a device under the rule's
// NoExecute taint and does not tolerate it for good (EvictionTolerance), once
// a tolerationSeconds it has is over.
// Keyed by rule name; rules without our labels, and other effects, are left
// alone. At most `burst` evictions at once and `per_second` after that, each
// through the Eviction API with a Warning Event (DeviceTaintEviction) on the
// Pod and dra_controller_health_extended_resource_evictions_total{outcome}
// (evicted, gone, blocked: a PodDisruptionBudget, retried later; failed).
class ExtendedResourcePodEvictor : public kube::Reconciler {
 public:
  using EventSink = std::function<void(const kube::ObjectReference& object, const std::string& type,
                                       const std::string& reason, const std::string& message)>;
  struct Rate {
    double per_second = 2;
    int burst = 5;
  };
  // A Pod a budget protects is tried again after this long.
  static constexpr std::chrono::seconds kBlockedRetry{10};

  ExtendedResourcePodEvictor(const kube::StoreReader<api::DeviceTaintRule>& rules,
                             const inventory::Inventory& inventory,
                             std::shared_ptr<PodEvictor> evictor, EventSink events,
                             std::shared_ptr<kube::Clock> clock, Rate rate,
                             const std::shared_ptr<prometheus::Registry>& registry);

  kube::ReconcileResult Reconcile(const std::string& rule_name) override;

  // A rule device health wrote (its labels) whose taint is NoExecute.
  static bool Governs(const api::DeviceTaintRule& rule);
  // The Pods to evict for `rule` now, whatever was done before.
  static std::vector<EvictionTarget> Targets(const inventory::Inventory& inventory,
                                             const api::DeviceTaintRule& rule);

 private:
  enum class Outcome { kEvicted, kGone, kBlocked, kFailed };
  Outcome EvictOne(const api::DeviceTaintRule& rule, const EvictionTarget& target,
                   kube::Status& error);
  bool TakeToken();
  // The UIDs evicted for `rule_name` before that are still targets (the
  // others are forgotten).
  std::set<std::string> StillEvicting(const std::string& rule_name,
                                      const std::vector<EvictionTarget>& targets);
  void Count(Outcome outcome);

  const kube::StoreReader<api::DeviceTaintRule>& rules_;
  const inventory::Inventory& inventory_;
  std::shared_ptr<PodEvictor> evictor_;
  EventSink events_;
  std::shared_ptr<kube::Clock> clock_;
  std::chrono::nanoseconds token_interval_;
  prometheus::Family<prometheus::Counter>* outcomes_ = nullptr;

  std::mutex mu_;  // guards the two below
  kube::TokenBucket bucket_;
  // Pod UIDs evicted per rule: a Pod being terminated still holds its claim,
  // and is not evicted (nor counted) again.
  std::map<std::string, std::set<std::string>> evicted_;
};

}  // namespace dra::health
