#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kube {

// Cutting text that may be UTF-8 (alert annotations, messages, API error
// bodies) so that the result is still valid where the input was: a cut
// never splits a character, which JSON serializers and the API server
// refuse. The one place text is shortened to a byte limit.
struct Utf8Text {
  // The longest prefix of `text` of at most `max_bytes` bytes that does not
  // end inside a multi-byte character.
  static std::string_view Prefix(std::string_view text, size_t max_bytes);
  // The same, with `marker` (e.g. "...") appended when anything was cut; the
  // whole still fits in `max_bytes` (when the marker does).
  static std::string Truncate(std::string_view text, size_t max_bytes,
                              std::string_view marker = "");
};

}  // namespace kube
