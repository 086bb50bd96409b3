#pragma once

#include <memory>

namespace kube {

// Receives changes of an informer's cache, in order, on a delivery thread of
// its own (after the cache holds the change). Handlers should only enqueue
// keys; reconcilers do the work elsewhere.
template <typename T>
class EventHandler {
 public:
  using Ptr = std::shared_ptr<const T>;
  virtual ~EventHandler() = default;
  virtual void OnAdd(const Ptr& object) = 0;
  virtual void OnUpdate(const Ptr& old_object, const Ptr& new_object) = 0;
  // `last_known` is the final state the cache held (a tombstone after a relist).
  virtual void OnDelete(const Ptr& last_known) = 0;
};

}  // namespace kube
