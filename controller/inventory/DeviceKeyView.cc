#include "controller/inventory/DeviceKeyView.h"

#include <functional>

namespace dra::inventory {

std::string DeviceKeyView::ToString() const {
  std::string text;
  text.reserve(driver.size() + pool.size() + device.size() + 2);
  text.append(driver).append("/").append(pool).append("/").append(device);
  return text;
}

size_t DeviceKeyView::Hash() const {
  std::hash<std::string_view> hash;
  size_t h = hash(driver);
  h = h * 31 + hash(pool);
  return h * 31 + hash(device);
}

}  // namespace dra::inventory
