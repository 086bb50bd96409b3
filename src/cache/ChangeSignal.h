#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "src/cache/EventHandler.h"

namespace kube {

// An informer handler that only raises a shared flag, so that something
// derived from the cache (a rendered metrics text) is recomputed after an
// object changed and not otherwise. With `matters`, an update that changes
// nothing the reader uses (a kubelet's periodic Node status, a controller's
// own status patch) raises nothing.
template <typename T>
class ChangeSignal : public EventHandler<T> {
 public:
  using Ptr = typename EventHandler<T>::Ptr;
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

}  // namespace kube
