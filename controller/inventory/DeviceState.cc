#include "controller/inventory/DeviceState.h"

#include "controller/inventory/DeviceInfo.h"
#include "controller/inventory/Tolerations.h"

namespace dra::inventory {
namespace {

DeviceBlocker BlockerOf(const DeviceFacts& f) {
  if (!f.pool_complete) return DeviceBlocker::kPoolIncomplete;
  if (!f.pool_valid) return DeviceBlocker::kPoolInvalid;
  if (!f.available) {
    if (f.allocated) return DeviceBlocker::kAllocated;
    if (!f.counters_available) return DeviceBlocker::kCountersInUse;
    return DeviceBlocker::kNoCapacityLeft;
  }
  return f.tainted ? DeviceBlocker::kTainted : DeviceBlocker::kNone;
}

}  // namespace

DeviceState DeviceState::Of(const DeviceFacts& facts) {
  DeviceState state;
  state.allocated_ = facts.allocated;
  state.tainted_ = facts.tainted;
  state.blocker_ = BlockerOf(facts);
  return state;
}

DeviceState DeviceState::Of(const DeviceInfo& info) {
  return Of({.pool_complete = info.pool_complete,
             .pool_valid = info.pool_valid,
             .allocated = !info.allocated_to.empty(),
             .available = info.available,
             .counters_available = info.counters_available,
             .tainted = HasEffect(info.taints, api::TaintEffect::kNoSchedule) ||
                        HasEffect(info.taints, api::TaintEffect::kNoExecute)});
}

bool DeviceState::unavailable() const {
  return !allocated_ && blocker_ != DeviceBlocker::kNone && blocker_ != DeviceBlocker::kTainted;
}

DeviceBlocker DeviceState::BlockerFor(bool class_unusable) const {
  return free() && class_unusable ? DeviceBlocker::kClassUnusable : blocker_;
}

std::string DeviceState::Label() const {
  std::string out;
  auto add = [&out](bool on, const char* name) {
    if (on) out += (out.empty() ? "" : ",") + std::string(name);
  };
  add(allocated_, "allocated");
  add(unavailable(), "unavailable");
  add(free(), "free");
  add(tainted_, "tainted");
  return out;
}

std::string_view DeviceState::UnavailableReason() const {
  if (!unavailable()) return "";
  switch (blocker_) {
    case DeviceBlocker::kPoolIncomplete:
      return "pool incomplete";
    case DeviceBlocker::kPoolInvalid:
      return "pool invalid";
    case DeviceBlocker::kCountersInUse:
      return "counters in use";
    default:
      return "no capacity left";
  }
}

bool DeviceState::Has(std::string_view state) const {
  if (state == "free") return free();
  if (state == "allocated") return allocated_;
  if (state == "unavailable") return unavailable();
  if (state == "tainted") return tainted_;
  return false;
}

std::string_view DeviceState::ReasonLabel(DeviceBlocker blocker) {
  switch (blocker) {
    case DeviceBlocker::kNone:
      return "";
    case DeviceBlocker::kPoolIncomplete:
      return "pool_incomplete";
    case DeviceBlocker::kPoolInvalid:
      return "pool_invalid";
    case DeviceBlocker::kAllocated:
      return "allocated";
    case DeviceBlocker::kCountersInUse:
      return "counters_in_use";
    case DeviceBlocker::kNoCapacityLeft:
      return "no_capacity_left";
    case DeviceBlocker::kTainted:
      return "tainted";
    case DeviceBlocker::kClassUnusable:
      return "class_unusable";
  }
  return "";
}

const std::array<DeviceBlocker, DeviceState::kBlockers - 1>& DeviceState::Blockers() {
  static const std::array<DeviceBlocker, kBlockers - 1> all = {
      DeviceBlocker::kPoolIncomplete, DeviceBlocker::kPoolInvalid,    DeviceBlocker::kAllocated,
      DeviceBlocker::kCountersInUse,  DeviceBlocker::kNoCapacityLeft, DeviceBlocker::kTainted,
      DeviceBlocker::kClassUnusable};
  return all;
}

}  // namespace dra::inventory
