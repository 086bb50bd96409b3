#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dra::inventory {

// A device's driver, pool and name read in place (from a slice, a DeviceKey
// or an allocation result), for lookups that need no copy of them.
struct DeviceKeyView {
  std::string_view driver;
  std::string_view pool;
  std::string_view device;

  // The same text as DeviceKey::ToString.
  std::string ToString() const;
  size_t Hash() const;

  friend bool operator==(const DeviceKeyView&, const DeviceKeyView&) = default;
};

}  // namespace dra::inventory
