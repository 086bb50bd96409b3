#pragma once

#include <string>

#include "controller/inventory/DeviceKey.h"

namespace dra::kubelet {

// The name of the DeviceHealth the kubelet source keeps for a device:
// "kubelet-<pool>-<device>-<hash>" (health::SourcedHealthName, the hash over
// "<driver>/<pool>/<device>").
class HealthObjectName {
 public:
  static std::string For(const inventory::DeviceKey& device);
};

}  // namespace dra::kubelet
