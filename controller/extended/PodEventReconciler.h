#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/extended/FindingReporter.h"
#include "controller/extended/MappingFinding.h"
#include "controller/inventory/Inventory.h"
#include "src/base/Clock.h"
#include "src/base/TokenBucket.h"
#include "src/cache/StoreReader.h"
#include "src/queue/Reconciler.h"

namespace dra::extended {

// Explains extended-resource Pods in Events, keyed by Pod:
//   - a Pending Pod the scheduler marked unschedulable gets one
//     ExtendedResourceUnschedulable Warning with the PodExplainer's summary,
//     and a new one only when that text changes;
//   - a scheduled Pod whose implicit claim is missing, unallocated or differs
//     from the translation for longer than `claim_grace` gets one
//     ExtendedResourceClaimMismatch Warning (again only when the text changes).
// All Events share one token bucket (burst, then one per `interval`): a
// backlog of thousands of Pods drains at that pace instead of as a storm.
// A Pod that finds the bucket empty reserves the next free token and is
// requeued for that moment, so each Pod of a backlog is explained about
// twice, not once per refill.
class PodEventReconciler : public kube::Reconciler {
 public:
  struct Stores {
    const kube::StoreReader<api::PodView>& pods;
    const kube::StoreReader<api::DeviceClass>& classes;
    const kube::StoreReader<api::NodeView>& nodes;
    const kube::StoreReader<api::ResourceClaim>& claims;
  };
  struct Options {
    int burst = 25;
    std::chrono::milliseconds interval{200};  // 5 Events/s once the burst is spent
    std::chrono::seconds claim_grace{30};
  };
  using FindingsFn = std::function<std::vector<MappingFinding>()>;
  // The Events of `reason` already on Pods: Pod uid -> the newest message
  // (SentPodEvents::List). Asked once per reason, before the first Event of
  // that reason, so that a restarted controller does not send a Pod the
  // Event it already has.
  using SentFn =
      std::function<kube::Result<std::map<std::string, std::string>>(const std::string& reason)>;

  PodEventReconciler(Stores stores, const inventory::Inventory& inventory,
                     FindingReporter::EventFn event, std::shared_ptr<kube::Clock> clock,
                     Options options, FindingsFn findings = {}, SentFn sent = {});

  kube::ReconcileResult Reconcile(const std::string& key) override;

  size_t remembered() const;

 private:
  struct Memory {
    std::string message;        // the latest Event's text
    bool sent_checked = false;  // compared with the Events already on the Pod
    kube::Clock::TimePoint problem_since{};
    bool problem_seen = false;
    // A token reserved for this Pod's next Event, usable from this time on.
    std::optional<kube::Clock::TimePoint> token_at;
  };

  kube::ReconcileResult Emit(const api::PodView& pod, const std::string& reason,
                             const std::string& message);
  kube::ReconcileResult CheckScheduled(const api::PodView& pod, const std::string& message);
  // Whether the Pod already has this Event from an earlier run (remembered
  // then). Only the Pod's first Event of this process asks.
  bool SentBefore(const api::PodView& pod, const std::string& reason, const std::string& message);
  // SentFn's answer for `reason`, asked once; empty when it failed.
  const std::map<std::string, std::string>& Sent(const std::string& reason);
  void Forget(const std::string& key);
  // How long the Pod still waits for its reserved token (zero: none reserved, or due).
  kube::Clock::Duration TokenWait(const std::string& key) const;

  Stores stores_;
  const inventory::Inventory& inventory_;
  FindingReporter::EventFn event_;
  std::shared_ptr<kube::Clock> clock_;
  Options options_;
  FindingsFn findings_;
  SentFn sent_fn_;
  std::mutex sent_mu_;  // guards sent_; held while SentFn lists
  std::map<std::string, std::map<std::string, std::string>> sent_;  // by reason
  mutable std::mutex mu_;
  kube::TokenBucket bucket_;
  std::unordered_map<std::string, Memory> memory_;  // by Pod key
};

}  // namespace dra::extended
