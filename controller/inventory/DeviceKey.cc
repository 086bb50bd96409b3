#include "controller/inventory/DeviceKey.h"

namespace dra::inventory {

std::string DeviceKey::ToString() const { return View().ToString(); }

kube::Result<DeviceKey> DeviceKey::Parse(std::string_view text) {
  size_t first = text.find('/');
  size_t last = text.rfind('/');
  if (first == std::string_view::npos || first == last || first == 0 || last + 1 == text.size() ||
      last == first + 1) {
    return kube::Status(
        kube::StatusCode::kInvalidArgument,
        "device \"" + std::string(text) + "\" is not of the form <driver>/<pool>/<device>");
  }
  return DeviceKey{std::string(text.substr(0, first)),
                   std::string(text.substr(first + 1, last - first - 1)),
                   std::string(text.substr(last + 1))};
}

}  // namespace dra::inventory
