#pragma once

#include "controller/check/CheckInputs.h"
#include "controller/check/CheckResult.h"

namespace dra::check {

// "Device access" as far as the API can tell.
class ClaimChecks {
 public:
  // Driver-reported status.devices[].conditions of type Ready not True: fail.
  static CheckResult DeviceConditions(const CheckInputs& in);
  // Allocated claims not reserved for a Pod that is Running: warn (devices
  // held by nobody working; the consumer may still be starting).
  static CheckResult Reservations(const report::ClusterSnapshot& s);
};

}  // namespace dra::check
