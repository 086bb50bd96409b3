#include "src/base/Utf8Text.h"

namespace kube {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string_view Utf8Text::Prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  // A character is at most four bytes: at most three continuations to skip.
  for (int back = 0; back < 3 && end > 0 && IsContinuation(text[end]); ++back) --end;
  return text.substr(0, end);
}

std::string Utf8Text::Truncate(std::string_view text, size_t max_bytes, std::string_view marker) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t room = max_bytes > marker.size() ? max_bytes - marker.size() : 0;
  std::string out(Prefix(text, room));
  out += marker;
  return out;
}

}  // namespace kube
