#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "controller/api/DeviceClass.h"
#include "controller/cel/ProgramCache.h"
#include "controller/inventory/ClassState.h"
#include "controller/inventory/DeviceTable.h"
#include "controller/inventory/SelectorErrorLog.h"

namespace dra::inventory {

// The DeviceClasses with their compiled selectors and the devices each
// matches. Selectors are evaluated for a device when it is added and for
// every device when a class's selectors change; failures are recorded per
// class (ClassState) and in the SelectorErrorLog. Not thread-safe; the
// Inventory serializes access.
class ClassIndex {
 public:
  using Classes = std::map<std::string, ClassState, std::less<>>;

  ClassIndex(std::shared_ptr<prometheus::Registry> metrics, cel::ProgramCache& programs)
      : errors_(std::move(metrics)), programs_(programs) {}

  void Apply(std::shared_ptr<const api::DeviceClass> device_class, const DeviceTable& devices);
  void Remove(const std::string& name) { classes_.erase(name); }
  void RecomputeAll(const DeviceTable& devices);
  // After devices.Add returned `id`.
  void Added(DeviceId id, const DeviceTable& devices);
  // Before the device is removed from the table.
  void Removed(DeviceId id);

  const ClassState* Find(std::string_view name) const;
  static bool Matches(const ClassState& cls, DeviceId id) {
    return id < cls.matches.size() && cls.matches[id];
  }
  const Classes& all() const { return classes_; }
  const SelectorErrorLog& errors() const { return errors_; }

 private:
  void Evaluate(ClassState& cls, DeviceId id, const cel::Device& device);

  Classes classes_;
  SelectorErrorLog errors_;
  cel::ProgramCache& programs_;
};

}  // namespace dra::inventory
