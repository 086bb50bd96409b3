#pragma once

#include <string>
#include <string_view>

#include "src/base/Result.h"

namespace kube {

// Standard (RFC 4648) base64 decoding as used by kubeconfig `*-data` fields.
// Whitespace and line breaks are ignored; padding is optional.
Result<std::string> Base64Decode(std::string_view encoded);

std::string Base64Encode(std::string_view raw);

}  // namespace kube
