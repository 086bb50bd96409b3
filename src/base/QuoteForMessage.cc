#include "src/base/QuoteForMessage.h"

#include "src/base/Utf8Text.h"

namespace kube {
namespace {

void AppendEscaped(char c, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto byte = static_cast<unsigned char>(c);
  if (c == '"' || c == '\\') {
    out += '\\';
    out += c;
  } else if (byte >= 0x20 && byte < 0x7f) {
    out += c;
  } else {
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
  }
}

}  // namespace

std::string QuoteForMessage(std::string_view text, size_t max_bytes) {
  bool truncated = text.size() > max_bytes;
  if (truncated) text = Utf8Text::Prefix(text, max_bytes);
  std::string out = "\"";
  for (char c : text) AppendEscaped(c, out);
  out += '"';
  if (truncated) out += "...";
  return out;
}

}  // namespace kube
