#pragma once

#include <functional>
#include <utility>

#include "src/cache/EventHandler.h"

namespace dra::inventory {

// Forwards one informer's events to an Inventory: adds and updates apply the
// newest object, deletes remove the last known one.
template <typename T>
class InventoryFeed : public kube::EventHandler<T> {
 public:
  using Ptr = typename kube::EventHandler<T>::Ptr;

  InventoryFeed(std::function<void(Ptr)> apply, std::function<void(const T&)> remove)
      : apply_(std::move(apply)), remove_(std::move(remove)) {}

  void OnAdd(const Ptr& object) override { apply_(object); }
  void OnUpdate(const Ptr&, const Ptr& object) override { apply_(object); }
  void OnDelete(const Ptr& last_known) override { remove_(*last_known); }

 private:
  std::function<void(Ptr)> apply_;
  std::function<void(const T&)> remove_;
};

}  // namespace dra::inventory
