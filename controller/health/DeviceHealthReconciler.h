#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/health/DeviceScope.h"
#include "controller/health/HealthMetrics.h"
#include "controller/health/HealthPolicy.h"
#include "controller/health/HealthStatusBuilder.h"
#include "controller/health/HealthWriter.h"
#include "controller/health/OwnWrites.h"
#include "controller/health/StormGuard.h"
#include "controller/health/TargetResolver.h"
#include "controller/inventory/Inventory.h"
#include "src/base/Clock.h"
#include "src/cache/StoreReader.h"
#include "src/events/ObjectReference.h"
#include "src/queue/Reconciler.h"

namespace dra::health {

// Where the reconciler reads: informer caches and the device inventory.
struct HealthSources {
  const kube::StoreReader<api::DeviceHealth>* healths = nullptr;
  const kube::StoreReader<api::DeviceTaintRule>* rules = nullptr;  // null: not served
  const inventory::Inventory* inventory = nullptr;
};

using EventFn = std::function<void(const kube::ObjectReference& object, const std::string& type,
                                   const std::string& reason, const std::string& message)>;

// Level-based reconciler of one DeviceHealth (key: its name): decides with
// HealthPolicy and the StormGuard, makes the one DeviceTaintRule it owns say
// that (applied, restored, or deleted; rules without our labels are never
// touched), and writes status, Events and metrics. Idempotent: an unchanged
// world makes no write.
class DeviceHealthReconciler : public kube::Reconciler {
 public:
  // How long a reconcile waits for the caches to show its own last writes.
  static constexpr std::chrono::seconds kOwnWritesPatience{2};

  DeviceHealthReconciler(HealthSources sources, std::shared_ptr<HealthWriter> writer,
                         EventFn events, std::shared_ptr<kube::Clock> clock, HealthOptions options,
                         std::shared_ptr<HealthMetrics> metrics);

  kube::ReconcileResult Reconcile(const std::string& key) override;

  // The watch saw a change of `key` (starts the write-latency clock).
  void NoteChange(const std::string& key);
  // Objects the storm guard keeps at NoSchedule: reconciled again whenever
  // any DeviceHealth changes, so they are promoted as soon as room frees up.
  std::vector<std::string> HeldKeys() const;

 private:
  kube::ReconcileResult Remove(const std::string& key,
                               const std::shared_ptr<const api::DeviceTaintRule>& rule, bool ours);
  kube::ReconcileResult ReportForeign(const api::DeviceHealth& health);
  PolicyInput InputOf(const api::DeviceHealth& health, const api::DeviceTaintRule* ours,
                      std::chrono::system_clock::time_point now) const;
  // The storm guard's verdict for `health` (admitted when it does not ask
  // for NoExecute now).
  StormVerdict StormCheck(const api::DeviceHealth& health, const PolicyInput& input,
                          const ScopeView& scope, std::chrono::system_clock::time_point now) const;
  void ExplainPreviewEnd(const api::DeviceHealth& target, const ScopeView& scope,
                         PolicyDecision& decision) const;
  // What WriteRule did to the rule.
  enum class Write { kNothing, kNewEffect, kSameEffect, kDeleted };

  kube::Status WriteRule(const api::DeviceHealth& health, const PolicyDecision& decision,
                         const api::DeviceTaintRule* ours, Write& wrote);
  // What the spec's target resolved to, and its status.resolved text.
  struct Resolved {
    TargetResolution resolution;
    std::string text;
    std::string spec_target;  // how spec names it, for messages
  };
  TargetResolver Resolver() const;
  // The devices and Pods `target` (driver, pool, device) names; none without a pool.
  ScopeView Scope(const api::DeviceHealth& target) const;
  kube::Status WriteStatus(const api::DeviceHealth& health, const Resolved& resolved,
                           const PolicyInput& input, const PolicyDecision& decision,
                           const ScopeView& scope, const api::DeviceTaintRule* ours, bool& written);
  void RecordEvents(const api::DeviceHealth& health, const PolicyInput& input,
                    const PolicyDecision& decision, const ScopeView& scope);
  void RecordMetrics(const api::DeviceHealth& health, const PolicyInput& input,
                     const PolicyDecision& decision, const ScopeView& scope, Write wrote);
  void SetHeld(const std::string& key, bool held);
  ConditionValue EnforcedCondition(const PolicyDecision& decision) const;
  std::vector<ConditionValue> Conditions(const PolicyDecision& decision, const ScopeView& scope,
                                         const Resolved& resolved,
                                         const api::DeviceTaintRule* ours) const;

  HealthSources sources_;
  std::shared_ptr<HealthWriter> writer_;
  EventFn events_;
  std::shared_ptr<kube::Clock> clock_;
  HealthPolicy policy_;
  std::shared_ptr<HealthMetrics> metrics_;
  OwnWrites own_writes_;

  // NoExecute this process put in force, by key, until its decision changes:
  // the storm guard counts it before the caches show the write, since
  // several workers decide at once. Admissions to NoExecute are serialized
  // from the storm guard's verdict to the rule write.
  void NoteNoExecute(const std::string& key, const api::DeviceHealth& target,
                     const ScopeView& scope, const PolicyDecision& decision, int64_t since_ms);
  void AddNoExecuteInMemory(const std::string& self, std::vector<StormCandidate>& candidates) const;
  std::mutex admission_mu_;
  mutable std::mutex no_execute_mu_;
  std::map<std::string, StormCandidate> no_execute_;  // guarded by no_execute_mu_

  mutable std::mutex mu_;  // guards the two below
  std::set<std::string> held_;
  std::map<std::string, kube::Clock::TimePoint> changed_at_;
};

}  // namespace dra::health
