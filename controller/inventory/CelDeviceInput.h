#pragma once

#include <string_view>

#include "controller/api/Device.h"
#include "controller/cel/Device.h"

namespace dra::inventory {

// The CEL `device` a selector sees for `device` of a slice published by
// `driver`: unqualified attribute and capacity names belong to the driver's
// domain; version attributes become semver values (an unparsable version is
// left out, so selectors reading it get CEL's missing-key error).
cel::Device ToCelDevice(const api::Device& device, std::string_view driver);

}  // namespace dra::inventory
