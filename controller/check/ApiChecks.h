#pragma once

#include "controller/check/CheckInputs.h"
#include "controller/check/CheckResult.h"

namespace dra::check {

// Is the API server new enough and does it serve the DRA API?
class ApiChecks {
 public:
  // resource.k8s.io/v1 is served from Kubernetes 1.34 on.
  static constexpr int kMinMinor = 34;

  static CheckResult Version(const CheckInputs& in);
  // DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice must be
  // served at resource.k8s.io/v1 (fail); DeviceTaintRule is JobChecks' matter.
  static CheckResult ResourcesServed(const CheckInputs& in);
};

}  // namespace dra::check
