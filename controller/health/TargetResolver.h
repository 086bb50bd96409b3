#pragma once

#include <cstddef>
#include <string>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/health/DeviceLocator.h"

namespace dra::health {

// What a DeviceHealth's target names now.
struct TargetResolution {
  enum class Outcome { kByName, kFound, kNotFound, kAmbiguous };
  Outcome outcome = Outcome::kByName;
  inventory::DeviceKey device;  // kFound only
  std::size_t matches = 0;      // devices the attribute matched

  bool resolved() const { return outcome == Outcome::kByName || outcome == Outcome::kFound; }
};

// Turns a target by UUID or by node and index into the driver, pool and
// device it names today, so that everything downstream (scope, rule, storm
// guard, metrics) handles one form. Looked up again on every reconcile: a
// driver that republishes the GPU under another pool or slice moves the
// rule with it.
class TargetResolver {
 public:
  explicit TargetResolver(DeviceLocator locator) : locator_(locator) {}

  TargetResolution Resolve(const api::DeviceHealth& health) const;
  // `health` with driver, pool and device naming what it resolved to. When
  // it resolves to nothing (not published, or ambiguous), they name what
  // `ours` selects, so a rule in force stays as it is until the device is
  // found again; without such a rule they are empty and no rule is written.
  static api::DeviceHealth Effective(const api::DeviceHealth& health,
                                     const TargetResolution& resolution,
                                     const api::DeviceTaintRule* ours);
  // status.resolved: "driver/pool/device", "driver/pool/*", "not found",
  // "ambiguous: N devices".
  static std::string Describe(const api::DeviceHealth& health, const TargetResolution& resolution);

 private:
  DeviceLocator locator_;
};

}  // namespace dra::health
