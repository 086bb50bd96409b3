#include "src/base/Base64.h"

#include <array>

namespace kube {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> MakeDecodeTable() {
  std::array<int, 256> table{};
  for (auto& v : table) v = -1;
  for (size_t i = 0; i < kAlphabet.size(); ++i)
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int>(i);
  return table;
}

constexpr std::array<int, 256> kDecode = MakeDecodeTable();

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

Result<std::string> Base64Decode(std::string_view encoded) {
  std::string out;
  out.reserve(encoded.size() * 3 / 4);
  unsigned buffer = 0;
  int bits = 0;
  size_t padding = 0;
  for (size_t i = 0; i < encoded.size(); ++i) {
    char c = encoded[i];
    if (IsSpace(c)) continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    int v = kDecode[static_cast<unsigned char>(c)];
    if (v < 0 || padding > 0) {
      return Status(StatusCode::kParseError, "invalid base64 at offset " + std::to_string(i) +
                                                 ": unexpected '" + std::string(1, c) + "'");
    }
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  if (padding > 2 || bits >= 6) {
    return Status(StatusCode::kParseError, "invalid base64: truncated input");
  }
  return out;
}

std::string Base64Encode(std::string_view raw) {
  std::string out;
  out.reserve((raw.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < raw.size(); i += 3) {
    unsigned n = (static_cast<unsigned char>(raw[i]) << 16) |
                 (static_cast<unsigned char>(raw[i + 1]) << 8) |
                 static_cast<unsigned char>(raw[i + 2]);
    for (int shift : {18, 12, 6, 0}) out.push_back(kAlphabet[(n >> shift) & 0x3F]);
  }
  size_t rest = raw.size() - i;
  if (rest > 0) {
    unsigned n = static_cast<unsigned char>(raw[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(raw[i + 1]) << 8;
    out.push_back(kAlphabet[(n >> 18) & 0x3F]);
    out.push_back(kAlphabet[(n >> 12) & 0x3F]);
    out.push_back(rest == 2 ? kAlphabet[(n >> 6) & 0x3F] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace kube
