#pragma once

#include <string>

#include "controller/inventory/DeviceKey.h"

namespace dra::kubelet {

// The name of the DeviceHealth the kubelet source keeps for a device:
// "kubelet-<pool>-<device>-<hash>", the readable part lowercased, cut so the
// name stays a DNS-1123 label (at most 63 characters), the hash (12 hex
// digits of FNV-1a over "<driver>/<pool>/<device>") telling apart devices
// whose readable parts collide. The same device always gets the same name.
class HealthObjectName {
 public:
  static constexpr size_t kMaxLength = 63;
  static std::string For(const inventory::DeviceKey& device);
};

}  // namespace dra::kubelet
