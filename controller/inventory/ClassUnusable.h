#pragma once

#include <string>

#include "controller/inventory/DeviceKey.h"

namespace dra::inventory {

// Why the scheduler cannot allocate from a DeviceClass (on a node): one of
// the class's selectors fails to compile or evaluate on a device the v1.37.2
// allocator would evaluate there, and the allocator then aborts instead of
// treating the device as "no match".
struct ClassUnusable {
  std::string class_name;
  DeviceKey device;
  std::string expression;
  std::string message;

  // "class <name> unusable: selector error on device <key>: <message>"
  std::string Describe() const;

  friend bool operator==(const ClassUnusable&, const ClassUnusable&) = default;
};

}  // namespace dra::inventory
