#pragma once

#include <array>
#include <string>
#include <string_view>

namespace dra::inventory {

struct DeviceInfo;

// What keeps the scheduler from giving a device to a request without
// tolerations now. A device has the first that applies, in this order, so
// every published device is either free or has exactly one.
enum class DeviceBlocker {
  kNone,            // free
  kPoolIncomplete,  // its pool misses slices of the newest generation
  kPoolInvalid,     // its pool is one the allocator rejects
  kAllocated,       // held whole, or shared with no capacity left for another share
  kCountersInUse,   // the shared counters it consumes are used up by other devices
  kNoCapacityLeft,  // a shared device whose capacity cannot take a default share
  kTainted,         // a NoSchedule or NoExecute taint
  kClassUnusable,   // its class's selector fails where the scheduler looks (per class)
};

// What a device's state follows from; DeviceInfo and the metrics' visit
// both carry these facts.
struct DeviceFacts {
  bool pool_complete = true;
  bool pool_valid = true;
  bool allocated = false;  // a claim holds it, whole or a share
  // The allocator could give it now, taints and selectors aside
  // (DeviceAvailability::AvailableFor).
  bool available = true;
  bool counters_available = true;
  bool tainted = false;  // NoSchedule or NoExecute
};

// A device's state: the one answer that `devices`, `explain` and the
// allocation metrics share. `allocated` and `tainted` are facts; `free`
// means the scheduler could give it to a request without tolerations now.
// A shared (allowMultipleAllocations) device with shares and room for
// another is both allocated and free.
class DeviceState {
 public:
  static constexpr size_t kBlockers = 8;

  static DeviceState Of(const DeviceFacts& facts);
  static DeviceState Of(const DeviceInfo& info);

  bool free() const { return blocker_ == DeviceBlocker::kNone; }
  bool allocated() const { return allocated_; }
  bool tainted() const { return tainted_; }
  // Neither free nor allocated: the pool, the counters or the capacity keep
  // it from the allocator.
  bool unavailable() const;
  DeviceBlocker blocker() const { return blocker_; }
  // blocker(), or kClassUnusable for a device that is free but whose class
  // is unusable where it is.
  DeviceBlocker BlockerFor(bool class_unusable) const;

  // "free", "allocated", "unavailable" or "tainted", or those that apply
  // joined by commas: "allocated,free", "allocated,tainted",
  // "unavailable,tainted".
  std::string Label() const;
  // Why unavailable ("pool incomplete", "counters in use", ...); "" otherwise.
  std::string_view UnavailableReason() const;
  // Whether `state` ("free", "allocated", "unavailable", "tainted") is one
  // of the states Label() names.
  bool Has(std::string_view state) const;

  // The metrics' `reason` label of a blocker ("" for kNone).
  static std::string_view ReasonLabel(DeviceBlocker blocker);
  // Every blocker but kNone, in order: the values of the `reason` label.
  static const std::array<DeviceBlocker, kBlockers - 1>& Blockers();

 private:
  bool allocated_ = false;
  bool tainted_ = false;
  DeviceBlocker blocker_ = DeviceBlocker::kNone;
};

}  // namespace dra::inventory
