#include "controller/kubelet/HealthObjectName.h"

#include "controller/health/SourcedHealthName.h"

namespace dra::kubelet {

std::string HealthObjectName::For(const inventory::DeviceKey& device) {
  return health::SourcedHealthName::For("kubelet-", device.pool + "-" + device.device,
                                        device.ToString());
}

}  // namespace dra::kubelet
