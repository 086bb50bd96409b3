#include "src/base/Uid.h"

#include <array>
#include <new>
#include <optional>
#include <ostream>

namespace kube {
namespace {

constexpr size_t kCanonicalSize = 36;
constexpr std::array<size_t, 4> kDashes = {8, 13, 18, 23};

bool IsDash(size_t position) {
  for (size_t dash : kDashes) {
    if (position == dash) return true;
  }
  return false;
}

std::optional<uint8_t> LowerHexDigit(char c) {
  if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
  return std::nullopt;
}

struct Halves {
  uint64_t high = 0;
  uint64_t low = 0;
};

// The UUID in `text` when it is canonical (8-4-4-4-12 lowercase hex digits).
std::optional<Halves> ParseCanonical(std::string_view text) {
  if (text.size() != kCanonicalSize) return std::nullopt;
  Halves halves;
  int digits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsDash(i)) {
      if (text[i] != '-') return std::nullopt;
      continue;
    }
    std::optional<uint8_t> digit = LowerHexDigit(text[i]);
    if (!digit) return std::nullopt;
    uint64_t& half = digits < 16 ? halves.high : halves.low;
    half = (half << 4) | *digit;
    ++digits;
  }
  return halves;
}

// Appends the 16 hex digits of `half`, with the dashes where they fall.
void AppendHex(uint64_t half, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int digit = 0; digit < 16; ++digit) {
    if (IsDash(out.size())) out.push_back('-');
    out.push_back(kHex[(half >> (60 - 4 * digit)) & 0xf]);
  }
}

}  // namespace

Uid::Uid(std::string_view text) {
  std::optional<Halves> halves = ParseCanonical(text);
  if (halves && halves->high != kTextMarker) {
    high_ = halves->high;
    low_ = halves->low;
  } else {
    new (&text_) InternedString(text);
  }
}

void Uid::CopyFrom(const Uid& other) {
  high_ = other.high_;
  if (other.binary()) {
    low_ = other.low_;
  } else {
    new (&text_) InternedString(other.text_);
  }
}

void Uid::MoveFrom(Uid&& other) noexcept {
  high_ = other.high_;
  if (other.binary()) {
    low_ = other.low_;
  } else {
    new (&text_) InternedString(std::move(other.text_));
  }
}

Uid& Uid::operator=(const Uid& other) {
  if (this == &other) return *this;
  DestroyText();
  CopyFrom(other);
  return *this;
}

Uid& Uid::operator=(Uid&& other) noexcept {
  if (this == &other) return *this;
  DestroyText();
  MoveFrom(std::move(other));
  return *this;
}

std::string Uid::str() const {
  if (!binary()) return text_.str();
  std::string out;
  out.reserve(kCanonicalSize);
  AppendHex(high_, out);
  AppendHex(low_, out);
  return out;
}

bool Uid::Equals(std::string_view text) const {
  if (!binary()) return text_ == text;
  std::optional<Halves> halves = ParseCanonical(text);
  return halves && halves->high == high_ && halves->low == low_;
}

std::ostream& operator<<(std::ostream& out, const Uid& uid) { return out << uid.str(); }

}  // namespace kube
