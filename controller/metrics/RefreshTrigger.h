#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace dra::metrics {

// Decides whether the rendered metrics are stale. Two kinds of source feed it:
// informer handlers that raise `flag()` (Pods, Nodes, DeviceHealths: their
// stores are updated before any handler runs, so a render after the flag sees
// the change), and a version counter that moves after a change was applied
// (the Inventory's, which its own handlers apply on other threads: a flag
// raised by a handler of the same informer could be seen before the change
// is). With both quiet nothing is re-rendered.
class RefreshTrigger {
 public:
  explicit RefreshTrigger(std::function<uint64_t()> version);

  std::shared_ptr<std::atomic<bool>> flag() const { return flag_; }
  // True when something changed since the last call that returned true (and
  // on the first call); it then takes the current state as rendered, so it
  // must be called before reading the sources, not after.
  bool TakeChange();

 private:
  std::function<uint64_t()> version_;
  std::shared_ptr<std::atomic<bool>> flag_;
  uint64_t rendered_version_ = 0;
  bool first_ = true;
};

}  // namespace dra::metrics
