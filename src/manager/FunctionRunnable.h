#pragma once

#include <functional>
#include <string>
#include <utility>

#include "src/manager/Runnable.h"

namespace kube {

// A Runnable made of two functions, for small steps that need no class of
// their own (a log line once caches have synced, a collector's registration).
class FunctionRunnable : public Runnable {
 public:
  FunctionRunnable(std::string name, bool leader_only, std::function<Status()> start,
                   std::function<void()> stop = {})
      : name_(std::move(name)),
        leader_only_(leader_only),
        start_(std::move(start)),
        stop_(std::move(stop)) {}

  std::string name() const override { return name_; }
  bool NeedsLeaderElection() const override { return leader_only_; }
  Status Start() override { return start_ ? start_() : Status::Ok(); }
  void Stop() override {
    if (stop_) stop_();
  }

 private:
  std::string name_;
  bool leader_only_;
  std::function<Status()> start_;
  std::function<void()> stop_;
};

}  // namespace kube
