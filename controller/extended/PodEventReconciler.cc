#include "controller/extended/PodEventReconciler.h"

#include <spdlog/spdlog.h>

#include "controller/extended/ExplanationEvent.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/PodExplainer.h"
#include "src/events/EventRecorder.h"

namespace dra::extended {
namespace {

kube::TokenBucket::Nanos Since(const kube::Clock& clock) {
  return std::chrono::duration_cast<kube::TokenBucket::Nanos>(clock.Now().time_since_epoch());
}

bool Unschedulable(const api::PodView& pod) {
  return pod.node_name.empty() && pod.scheduled && pod.scheduled->status == "False";
}

}  // namespace

PodEventReconciler::PodEventReconciler(Stores stores, const inventory::Inventory& inventory,
                                       FindingReporter::EventFn event,
                                       std::shared_ptr<kube::Clock> clock, Options options,
                                       FindingsFn findings, SentFn sent)
    : stores_(stores),
      inventory_(inventory),
      event_(std::move(event)),
      clock_(std::move(clock)),
      options_(options),
      findings_(std::move(findings)),
      sent_fn_(std::move(sent)),
      bucket_(options.burst, options.interval, Since(*clock_)) {}

size_t PodEventReconciler::remembered() const {
  std::lock_guard lock(mu_);
  return memory_.size();
}

kube::Clock::Duration PodEventReconciler::TokenWait(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = memory_.find(key);
  if (it == memory_.end() || !it->second.token_at) return kube::Clock::Duration::zero();
  auto now = clock_->Now();
  return *it->second.token_at > now ? *it->second.token_at - now : kube::Clock::Duration::zero();
}

void PodEventReconciler::Forget(const std::string& key) {
  std::lock_guard lock(mu_);
  memory_.erase(key);
}

kube::ReconcileResult PodEventReconciler::Reconcile(const std::string& key) {
  auto pod = stores_.pods.Get(key);
  if (!pod || pod->deletion_in_progress() || pod->phase == "Succeeded" || pod->phase == "Failed") {
    Forget(key);
    return kube::ReconcileResult::Done();
  }
  bool pending = Unschedulable(*pod);
  if (!pending && pod->node_name.empty()) return kube::ReconcileResult::Done();
  if (auto wait = TokenWait(key); wait > kube::Clock::Duration::zero()) {
    return kube::ReconcileResult::RequeueAfter(wait);
  }
  auto classes = stores_.classes.List();
  auto mapping = ExtendedResourceMapping::Build(classes);
  // A bound Pod is judged on its own node only; listing every Node for each
  // of them kept a 150,000-Pod sync busy for minutes.
  std::vector<std::shared_ptr<const api::NodeView>> nodes;
  if (pending) {
    nodes = stores_.nodes.List();
  } else if (auto own = stores_.nodes.Get(pod->node_name.str())) {
    nodes.push_back(std::move(own));
  }
  PodExplainer::Inputs in{
      mapping,
      nodes,
      inventory_,
      [this](const std::string& ns, const std::string& name) {
        return stores_.claims.Get(ns + "/" + name);
      },
      findings_ ? findings_() : std::vector<MappingFinding>{},
      std::chrono::duration_cast<std::chrono::seconds>(clock_->WallNow().time_since_epoch())
          .count()};
  auto explanation = PodExplainer::Explain(*pod, in);
  if (explanation.dra_resources.empty() && explanation.notes.empty()) {
    Forget(key);
    return kube::ReconcileResult::Done();
  }
  if (pending) {
    return Emit(*pod, "ExtendedResourceUnschedulable", ExplanationEvent::Message(explanation));
  }
  if (explanation.problems.empty()) {
    Forget(key);
    return kube::ReconcileResult::Done();
  }
  std::string message = "Implicit claim " + explanation.claim_name + ": ";
  for (size_t i = 0; i < explanation.problems.size(); ++i) {
    message += (i ? "; " : "") + explanation.problems[i];
  }
  return CheckScheduled(*pod, message);
}

kube::ReconcileResult PodEventReconciler::CheckScheduled(const api::PodView& pod,
                                                         const std::string& message) {
  auto now = clock_->Now();
  {
    std::lock_guard lock(mu_);
    Memory& m = memory_[pod.meta.Key()];
    if (!m.problem_seen) {
      m.problem_seen = true;
      m.problem_since = now;
    }
    auto waited = now - m.problem_since;
    if (waited < options_.claim_grace) {
      return kube::ReconcileResult::RequeueAfter(options_.claim_grace - waited);
    }
  }
  return Emit(pod, "ExtendedResourceClaimMismatch", message);
}

const std::map<std::string, std::string>& PodEventReconciler::Sent(const std::string& reason) {
  std::lock_guard lock(sent_mu_);
  auto it = sent_.find(reason);
  if (it != sent_.end()) return it->second;
  auto listed = sent_fn_(reason);
  if (!listed.ok()) {
    spdlog::warn(
        "extended resources: cannot read the {} Events already on Pods ({}); a Pod may "
        "get its Event again",
        reason, listed.status().message());
  }
  return sent_
      .emplace(reason, listed.ok() ? std::move(*listed) : std::map<std::string, std::string>{})
      .first->second;
}

bool PodEventReconciler::SentBefore(const api::PodView& pod, const std::string& reason,
                                    const std::string& message) {
  if (!sent_fn_) return false;
  {
    std::lock_guard lock(mu_);
    Memory& m = memory_[pod.meta.Key()];
    if (m.sent_checked || !m.message.empty()) return false;
    m.sent_checked = true;
  }
  const auto& sent = Sent(reason);
  auto it = sent.find(pod.meta.uid.str());
  if (it == sent.end() || it->second != kube::EventRecorder::StoredMessage(message)) return false;
  std::lock_guard lock(mu_);
  memory_[pod.meta.Key()].message = message;
  return true;
}

kube::ReconcileResult PodEventReconciler::Emit(const api::PodView& pod, const std::string& reason,
                                               const std::string& message) {
  if (SentBefore(pod, reason, message)) return kube::ReconcileResult::Done();
  {
    std::lock_guard lock(mu_);
    Memory& m = memory_[pod.meta.Key()];
    if (m.message == message) return kube::ReconcileResult::Done();
    if (m.token_at) {
      m.token_at.reset();  // due (TokenWait said so): it is this Event's
    } else {
      auto reserved = bucket_.Reserve(Since(*clock_));
      if (reserved == kube::TokenBucket::Nanos::max()) return kube::ReconcileResult::Done();
      auto wait = std::chrono::duration_cast<kube::Clock::Duration>(reserved);
      if (wait > kube::Clock::Duration::zero()) {
        m.token_at = clock_->Now() + wait;
        return kube::ReconcileResult::RequeueAfter(wait);
      }
    }
    m.message = message;
  }
  kube::ObjectReference ref{
      "v1", "Pod", pod.meta.namespace_name.str(), pod.meta.name, pod.meta.uid.str(), ""};
  if (event_) event_(ref, kube::kEventTypeWarning, reason, message);
  return kube::ReconcileResult::Done();
}

}  // namespace dra::extended
