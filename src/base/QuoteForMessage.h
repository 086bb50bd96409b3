#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kube {

// Quotes untrusted text for an error message: double quotes and backslashes
// are escaped, bytes outside printable ASCII become \xNN, and text longer than
// max_bytes is cut with a trailing "..." so that a huge input cannot blow up
// a log line.
std::string QuoteForMessage(std::string_view text, size_t max_bytes = 64);

}  // namespace kube
