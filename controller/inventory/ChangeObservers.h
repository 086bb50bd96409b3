#pragma once

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace dra::inventory {

// Callbacks told of each object an InventoryFeed has just applied or
// removed, on the feed's own delivery thread: a reader they wake sees the
// Inventory with the change in it. Each informer handler runs on a thread
// of its own, so a handler beside the feed may run before the Inventory has
// the change, and a reconcile it queues reads the old state.
template <typename T>
class ChangeObservers {
 public:
  using Observer = std::function<void(const T&)>;

  void Add(Observer observer) {
    std::lock_guard lock(mu_);
    observers_.push_back(std::move(observer));
  }

  void Notify(const T& object) const {
    std::lock_guard lock(mu_);
    for (const auto& observer : observers_) observer(object);
  }

 private:
  mutable std::mutex mu_;
  std::vector<Observer> observers_;
};

}  // namespace dra::inventory
