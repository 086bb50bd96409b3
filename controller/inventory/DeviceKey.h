#pragma once

#include <string>
#include <string_view>

#include "controller/inventory/DeviceKeyView.h"
#include "src/base/Result.h"

namespace dra::inventory {

// A device's identity across the cluster: driver, pool and device name, as
// allocation results and DeviceTaintRules name it.
struct DeviceKey {
  std::string driver;
  std::string pool;
  std::string device;

  // "<driver>/<pool>/<device>". Pool names may contain '/', drivers and
  // device names may not, so the text parses back unambiguously.
  std::string ToString() const;
  DeviceKeyView View() const { return {driver, pool, device}; }
  static kube::Result<DeviceKey> Parse(std::string_view text);

  friend bool operator==(const DeviceKey&, const DeviceKey&) = default;
  friend auto operator<=>(const DeviceKey&, const DeviceKey&) = default;
};

}  // namespace dra::inventory
