#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "controller/app/Features.h"
#include "src/base/Result.h"

namespace dra::app {

// Which features `run` wires, from --controllers as kube-controller-manager
// reads its flag of that name: comma-separated items, "*" for every feature,
// "NAME" to add one, "-NAME" to remove one, applied left to right. A feature
// whose Needs() are not all selected is off too (the kubelet's reports and the
// Alertmanager webhook feed device health: without it they would write
// DeviceHealths nobody acts on).
class ControllerSelection {
 public:
  // A usage error names the unknown or empty item and the known names.
  static kube::Result<ControllerSelection> Parse(std::string_view spec,
                                                 const FeatureList& features);

  bool Enabled(std::string_view name) const { return enabled_.count(std::string(name)) > 0; }
  // One line per feature that is off, saying why; for the log.
  const std::vector<std::string>& reasons() const { return reasons_; }
  // The names of the features that are off, in registration order.
  const std::vector<std::string>& off() const { return off_; }
  // Removes the features that are off from `features`, keeping the order.
  void Filter(FeatureList& features) const;

 private:
  std::set<std::string> enabled_;
  std::vector<std::string> reasons_;
  std::vector<std::string> off_;
};

}  // namespace dra::app
