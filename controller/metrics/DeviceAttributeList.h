#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace dra::metrics {

// The value of --metrics-device-attributes: attribute names separated by
// commas ("uuid,productName" or "gpu.nvidia.com/uuid"), copied as labels
// onto dra_controller_device_info. Empty entries and spaces around names are
// dropped; a name with characters an attribute name cannot hold, or two
// names exported under the same label, is an error naming the entry.
class DeviceAttributeList {
 public:
  static kube::Result<std::vector<std::string>> Parse(std::string_view text);
};

}  // namespace dra::metrics
