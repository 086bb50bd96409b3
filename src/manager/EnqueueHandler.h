#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/cache/EventHandler.h"
#include "src/queue/WorkQueue.h"

namespace kube {

// An informer handler that only turns events into work-queue keys, as
// handlers should: the reconciler does the work on its own threads.
// `keys` maps an object to the keys to reconcile (its own key, its owner's,
// or several); on an update both the old and the new object are mapped.
template <typename T>
class EnqueueHandler : public EventHandler<T> {
 public:
  using Ptr = typename EventHandler<T>::Ptr;
  using KeyFunc = std::function<std::vector<std::string>(const T&)>;

  EnqueueHandler(std::shared_ptr<WorkQueue> queue, KeyFunc keys)
      : queue_(std::move(queue)), keys_(std::move(keys)) {}

  void OnAdd(const Ptr& object) override { Enqueue(object); }
  void OnUpdate(const Ptr& old_object, const Ptr& new_object) override {
    Enqueue(old_object);
    Enqueue(new_object);
  }
  void OnDelete(const Ptr& last_known) override { Enqueue(last_known); }

 private:
  void Enqueue(const Ptr& object) {
    if (!object) return;
    for (const auto& key : keys_(*object)) queue_->Add(key);
  }

  std::shared_ptr<WorkQueue> queue_;
  KeyFunc keys_;
};

}  // namespace kube
