#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>
#include <vector>

#include "src/cache/Informer.h"
#include "src/cache/InformerDependency.h"
#include "src/cache/ListMemoryBudget.h"

namespace kube {

// Hands out one Informer per (resource, selectors, projection type), so every
// reconciler interested in a resource shares one list+watch and one cache.
// The first request's transform and `keep` predicate serve all of them, so
// every caller for one projection type must pass the same.
class InformerRegistry {
 public:
  // With `metrics`, every informer's reflector reports its decode errors
  // there; with `clock`, reflectors whose options name none run on it.
  explicit InformerRegistry(std::shared_ptr<RestClient> client,
                            std::shared_ptr<prometheus::Registry> metrics = nullptr,
                            std::shared_ptr<Clock> clock = nullptr)
      : client_(std::move(client)), metrics_(std::move(metrics)), clock_(std::move(clock)) {}
  ~InformerRegistry() { StopAll(); }

  template <typename T>
  Informer<T>& Get(const ResourceType& type, typename Informer<T>::Transform transform,
                   const ReflectorOptions& options = {},
                   typename Informer<T>::Keep keep = nullptr) {
    std::lock_guard lock(mu_);
    std::string key = type.Describe() + "|" + options.label_selector + "|" +
                      options.field_selector + "|" + typeid(T).name();
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      ReflectorOptions with_metrics = options;
      if (!with_metrics.metrics) with_metrics.metrics = metrics_;
      if (!with_metrics.clock) with_metrics.clock = clock_;
      if (!with_metrics.list_budget) with_metrics.list_budget = list_budget_;
      if (with_metrics.watch_list == WatchListMode::kAuto) with_metrics.watch_list = watch_list_;
      auto informer = std::make_shared<Informer<T>>(client_, type, std::move(transform),
                                                    with_metrics, std::move(keep));
      Entry entry{informer,
                  [informer] { informer->Start(); },
                  [informer] { informer->Stop(); },
                  [informer](std::chrono::milliseconds t) { return informer->WaitForSync(t); },
                  [informer]() -> const Reflector& { return informer->reflector(); },
                  [informer] { return informer->CheckProgress(); },
                  InformerDependency::On(*informer)};
      if (started_) entry.start();
      it = entries_.emplace(key, std::move(entry)).first;
    }
    return *std::static_pointer_cast<Informer<T>>(it->second.informer);
  }

  // How informers asked for later with the default (auto) watch-list mode
  // make their full syncs (the controller's --watch-list flag).
  void SetWatchListMode(WatchListMode mode) {
    std::lock_guard lock(mu_);
    watch_list_ = mode;
  }

  // Starts every informer, and any requested later.
  void StartAll() {
    std::lock_guard lock(mu_);
    started_ = true;
    for (auto& [key, entry] : entries_) entry.start();
  }

  void StopAll() {
    std::lock_guard lock(mu_);
    for (auto& [key, entry] : entries_) entry.stop();
  }

  // True once every informer has synced, false at the deadline.
  bool WaitForSync(std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    std::lock_guard lock(mu_);
    for (auto& [key, entry] : entries_) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (!entry.wait_for_sync(std::max(left, std::chrono::milliseconds(0)))) return false;
    }
    return true;
  }

  // Every informer asked for so far, as dependencies to wait for.
  std::vector<InformerDependency> Dependencies() const {
    std::vector<InformerDependency> all;
    std::lock_guard lock(mu_);
    for (const auto& [key, entry] : entries_) all.push_back(entry.dependency);
    return all;
  }

  // Unavailable naming every informer that has not synced, with the reason
  // its reflector last failed (see InformerDependency::Check).
  Status CheckSynced() const {
    return Collect([](const Entry& e) { return e.dependency.Check(); });
  }

  // Unavailable naming every informer whose reflector or one of whose
  // handlers is wedged (see Informer::CheckProgress); for a liveness check.
  Status CheckProgress() const {
    return Collect([](const Entry& e) { return e.check_progress(); });
  }

  // Unavailable naming every informer whose open watch has delivered no
  // complete event for its reflector's watch_ready_timeout; for a
  // readiness check (Reflector::CheckWatchProgress).
  Status CheckWatchProgress() const {
    return Collect([](const Entry& e) { return e.reflector().CheckWatchProgress(); });
  }

  // The budget every informer's LIST pages share.
  const ListMemoryBudget& list_budget() const { return *list_budget_; }

  // Unavailable naming every informer that has not had a successful list or
  // watch for longer than `max_staleness`; for a readiness check.
  Status CheckFreshness(Clock::Duration max_staleness) const {
    return Collect(
        [max_staleness](const Entry& e) { return e.reflector().CheckFreshness(max_staleness); });
  }

  size_t size() const {
    std::lock_guard lock(mu_);
    return entries_.size();
  }

 private:
  struct Entry {
    std::shared_ptr<void> informer;
    std::function<void()> start;
    std::function<void()> stop;
    std::function<bool(std::chrono::milliseconds)> wait_for_sync;
    std::function<const Reflector&()> reflector;
    std::function<Status()> check_progress;
    InformerDependency dependency;
  };

  Status Collect(const std::function<Status(const Entry&)>& check) const {
    std::string failures;
    std::lock_guard lock(mu_);
    for (const auto& [key, entry] : entries_) {
      Status status = check(entry);
      if (!status.ok()) failures += (failures.empty() ? "" : "; ") + status.message();
    }
    if (failures.empty()) return Status::Ok();
    return Status(StatusCode::kUnavailable, failures);
  }

  std::shared_ptr<RestClient> client_;
  std::shared_ptr<prometheus::Registry> metrics_;
  std::shared_ptr<Clock> clock_;
  std::shared_ptr<ListMemoryBudget> list_budget_ = std::make_shared<ListMemoryBudget>();
  mutable std::mutex mu_;
  bool started_ = false;
  WatchListMode watch_list_ = WatchListMode::kAuto;
  std::map<std::string, Entry> entries_;
};

}  // namespace kube
