#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include "controller/cel/Semver.h"
#include "src/api/Quantity.h"

namespace dra::cel {

// A device attribute value: int, bool, string or version.
using Attribute = std::variant<int64_t, bool, std::string, Semver>;
using AttributeDomain = std::map<std::string, Attribute, std::less<>>;
using CapacityDomain = std::map<std::string, kube::Quantity, std::less<>>;

// The CEL input "device" of a DRA selector.
struct Device {
  std::string driver;
  // domain -> attribute name -> value
  std::map<std::string, AttributeDomain, std::less<>> attributes;
  // domain -> capacity name -> quantity
  std::map<std::string, CapacityDomain, std::less<>> capacity;
  bool allow_multiple_allocations = false;
};

}  // namespace dra::cel
