#include "controller/health/TargetResolver.h"

namespace dra::health {

TargetResolution TargetResolver::Resolve(const api::DeviceHealth& health) const {
  TargetResolution out;
  if (health.NamesPool()) return out;
  std::vector<inventory::DeviceKey> found;
  if (!health.uuid.empty()) {
    found = locator_.ByUuid(health.driver, health.uuid);
  } else if (!health.node.empty() && health.index.has_value()) {
    found = locator_.ByNodeIndex(health.driver, health.node, *health.index);
  }
  out.matches = found.size();
  if (found.empty()) {
    out.outcome = TargetResolution::Outcome::kNotFound;
  } else if (found.size() > 1) {
    out.outcome = TargetResolution::Outcome::kAmbiguous;
  } else {
    out.outcome = TargetResolution::Outcome::kFound;
    out.device = std::move(found.front());
  }
  return out;
}

api::DeviceHealth TargetResolver::Effective(const api::DeviceHealth& health,
                                            const TargetResolution& resolution,
                                            const api::DeviceTaintRule* ours) {
  api::DeviceHealth effective = health;
  if (resolution.outcome == TargetResolution::Outcome::kByName) return effective;
  if (resolution.outcome == TargetResolution::Outcome::kFound) {
    effective.driver = resolution.device.driver;
    effective.pool = resolution.device.pool;
    effective.device = resolution.device.device;
    return effective;
  }
  effective.driver.clear();
  effective.pool.clear();
  effective.device.clear();
  // Only a rule naming one device is carried over: a rule of ours always
  // does for these targets, and anything wider must never be rewritten.
  if (ours != nullptr && ours->selector.has_value() && !ours->selector->driver.empty() &&
      !ours->selector->pool.empty() && !ours->selector->device.empty()) {
    effective.driver = ours->selector->driver;
    effective.pool = ours->selector->pool;
    effective.device = ours->selector->device;
  }
  return effective;
}

std::string TargetResolver::Describe(const api::DeviceHealth& health,
                                     const TargetResolution& resolution) {
  switch (resolution.outcome) {
    case TargetResolution::Outcome::kByName:
      return health.driver + "/" + health.pool + "/" +
             (health.device.empty() ? "*" : health.device);
    case TargetResolution::Outcome::kFound:
      return resolution.device.ToString();
    case TargetResolution::Outcome::kNotFound:
      return "not found";
    case TargetResolution::Outcome::kAmbiguous:
      return "ambiguous: " + std::to_string(resolution.matches) + " devices";
  }
  return "";
}

}  // namespace dra::health
