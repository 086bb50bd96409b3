#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/manager/Runnable.h"

namespace kube {

// A Runnable made of two functions, for small steps that need no class of
// their own (a log line once caches have synced, a collector's registration).
class FunctionRunnable : public Runnable {
 public:
  // `waits_for`: see Runnable::WaitsFor (nullopt: every informer).
  FunctionRunnable(std::string name, bool leader_only, std::function<Status()> start,
                   std::function<void()> stop = {},
                   std::optional<std::vector<InformerDependency>> waits_for = std::nullopt)
      : name_(std::move(name)),
        leader_only_(leader_only),
        start_(std::move(start)),
        stop_(std::move(stop)),
        waits_for_(std::move(waits_for)) {}

  std::string name() const override { return name_; }
  bool NeedsLeaderElection() const override { return leader_only_; }
  std::optional<std::vector<InformerDependency>> WaitsFor() const override { return waits_for_; }
  Status Start() override { return start_ ? start_() : Status::Ok(); }
  void Stop() override {
    if (stop_) stop_();
  }

 private:
  std::string name_;
  bool leader_only_;
  std::function<Status()> start_;
  std::function<void()> stop_;
  std::optional<std::vector<InformerDependency>> waits_for_;
};

}  // namespace kube
