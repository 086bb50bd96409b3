#pragma once

#include "src/base/Status.h"
#include "src/client/RestClient.h"

namespace dra::health {

// Whether the API server serves dra-controller.dev/v1alpha1 devicehealths:
// the CRDs are installed apart from the API server, so discovery at start
// does not tell. Every feature that reads or writes DeviceHealths asks.
class DeviceHealthApi {
 public:
  // Ok when served; else kNotFound saying what is missing and how to fix it.
  static kube::Status Served(kube::RestClient& client);
};

}  // namespace dra::health
