#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "controller/inventory/ChangeObservers.h"
#include "src/cache/EventHandler.h"

namespace dra::inventory {

// Forwards one informer's events to an Inventory: adds and updates apply the
// newest object, deletes remove the last known one. Then `observers` (if
// any) are told of the object, of both the old and the new one on an update
// (a slice that moved pools, a claim that lost its allocation).
template <typename T>
class InventoryFeed : public kube::EventHandler<T> {
 public:
  using Ptr = typename kube::EventHandler<T>::Ptr;

  InventoryFeed(std::function<void(Ptr)> apply, std::function<void(const T&)> remove,
                std::shared_ptr<const ChangeObservers<T>> observers = nullptr)
      : apply_(std::move(apply)), remove_(std::move(remove)), observers_(std::move(observers)) {}

  void OnAdd(const Ptr& object) override {
    apply_(object);
    Notify(object);
  }
  void OnUpdate(const Ptr& old_object, const Ptr& object) override {
    apply_(object);
    Notify(old_object);
    Notify(object);
  }
  void OnDelete(const Ptr& last_known) override {
    remove_(*last_known);
    Notify(last_known);
  }

 private:
  void Notify(const Ptr& object) const {
    if (observers_ && object) observers_->Notify(*object);
  }

  std::function<void(Ptr)> apply_;
  std::function<void(const T&)> remove_;
  std::shared_ptr<const ChangeObservers<T>> observers_;
};

}  // namespace dra::inventory
