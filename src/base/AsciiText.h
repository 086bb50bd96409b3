#pragma once

#include <string>
#include <string_view>

namespace kube {

// The ASCII-only text helpers that HTTP headers, tokens and flags need:
// protocol text is ASCII, so no locale is consulted.
struct AsciiText {
  // A copy with A-Z lowered; other bytes unchanged.
  static std::string Lower(std::string_view text);
  // Without leading and trailing spaces, tabs, CR, LF, VT and FF.
  static std::string_view Trim(std::string_view text);
};

}  // namespace kube
