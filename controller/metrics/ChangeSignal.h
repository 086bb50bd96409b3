#pragma once

#include <atomic>
#include <memory>

#include "src/cache/EventHandler.h"

namespace dra::metrics {

// An informer handler that only raises a shared flag, so the metrics are
// recomputed after the inventory or the Pods changed and not otherwise.
template <typename T>
class ChangeSignal : public kube::EventHandler<T> {
 public:
  using Ptr = typename kube::EventHandler<T>::Ptr;
  explicit ChangeSignal(std::shared_ptr<std::atomic<bool>> dirty) : dirty_(std::move(dirty)) {}
  void OnAdd(const Ptr&) override { dirty_->store(true); }
  void OnUpdate(const Ptr&, const Ptr&) override { dirty_->store(true); }
  void OnDelete(const Ptr&) override { dirty_->store(true); }

 private:
  std::shared_ptr<std::atomic<bool>> dirty_;
};

}  // namespace dra::metrics
