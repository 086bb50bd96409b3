#pragma once

#include <string>
#include <vector>

#include "controller/check/CheckInputs.h"
#include "src/base/Result.h"

namespace dra::cli {

// What `run` needs with the arguments the Deployment gives it: the inventory
// always, then each feature --controllers and the feature's own flags turn on
// (--leader-elect, --metrics-secure, the Alertmanager webhook's address,
// --kubelet-health-reports, --repair-extended-resource-mapping,
// --delete-leaked-claims). Each permission once, under the first feature that
// needs it. Arguments it cannot read are an error naming them.
class ControllerNeeds {
 public:
  static kube::Result<std::vector<check::ControllerNeed>> For(const std::vector<std::string>& args);
};

}  // namespace dra::cli
