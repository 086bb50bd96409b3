#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "src/cache/EventHandler.h"

namespace dra::metrics {

// An informer handler that only raises a shared flag (RefreshTrigger), so
// the metrics are recomputed after a Pod, Node or DeviceHealth changed and not
// otherwise. Not for the inventory's own informers: the Inventory applies
// their events on other handler threads, and its change count says when it
// has. With `matters`, an update that changes nothing the metrics read (a
// kubelet's periodic Node status, the controller's own DeviceHealth status
// patch) raises nothing.
template <typename T>
class ChangeSignal : public kube::EventHandler<T> {
 public:
  using Ptr = typename kube::EventHandler<T>::Ptr;
  using Matters = std::function<bool(const T& old_object, const T& new_object)>;

  explicit ChangeSignal(std::shared_ptr<std::atomic<bool>> dirty, Matters matters = nullptr)
      : dirty_(std::move(dirty)), matters_(std::move(matters)) {}
  void OnAdd(const Ptr&) override { dirty_->store(true); }
  void OnUpdate(const Ptr& old_object, const Ptr& new_object) override {
    if (!matters_ || !old_object || !new_object || matters_(*old_object, *new_object)) {
      dirty_->store(true);
    }
  }
  void OnDelete(const Ptr&) override { dirty_->store(true); }

 private:
  std::shared_ptr<std::atomic<bool>> dirty_;
  Matters matters_;
};

}  // namespace dra::metrics
