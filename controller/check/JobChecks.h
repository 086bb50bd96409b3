#pragma once

#include "controller/check/CheckInputs.h"
#include "controller/check/CheckResult.h"

namespace dra::check {

// One row per job whose means differ between Kubernetes releases: what this
// cluster offers it, asked of the API server where it can say (API discovery,
// a server-side dry run), else read from the release's defaults
// (api::DraReleases). A job the cluster cannot run warns: the other jobs do
// not need it.
class JobChecks {
 public:
  static CheckResult DeviceHealth(const CheckInputs& in);
  static CheckResult ExtendedResources(const CheckInputs& in);
  static CheckResult KubeletHealthReports(const CheckInputs& in);
};

}  // namespace dra::check
