#include "src/base/ResourceVersion.h"

#include <charconv>
#include <cstring>
#include <new>
#include <ostream>
#include <utility>

namespace kube {

// The kept text: its length, then its characters.
struct ResourceVersion::Block {
  uint32_t size;
  const char* text() const { return reinterpret_cast<const char*>(this) + sizeof(Block); }
  char* text() { return reinterpret_cast<char*>(this) + sizeof(Block); }
};

namespace {

constexpr size_t kMaxDigits = 19;  // below 2^63 once the number is shifted left by one
constexpr uint64_t kLargestNumber = (uint64_t{1} << 63) - 1;

// The number a canonical decimal text stands for: digits only, no leading
// zero (except "0" itself), small enough to keep shifted. Anything else is
// kept as text, so that it reads back exactly.
bool CanonicalNumber(std::string_view text, uint64_t& number) {
  if (text.empty() || text.size() > kMaxDigits) return false;
  if (text.size() > 1 && text.front() == '0') return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  return error == std::errc() && end == text.data() + text.size() && number <= kLargestNumber;
}

}  // namespace

ResourceVersion::ResourceVersion(std::string_view text) {
  if (text.empty()) return;
  uint64_t number = 0;
  if (CanonicalNumber(text, number)) {
    bits_ = (number << 1) | kNumberTag;
    return;
  }
  auto* block = new (::operator new(sizeof(Block) + text.size())) Block;
  block->size = static_cast<uint32_t>(text.size());
  std::memcpy(block->text(), text.data(), text.size());
  bits_ = reinterpret_cast<uint64_t>(block);
}

ResourceVersion::ResourceVersion(const ResourceVersion& other) {
  if (other.is_number() || other.empty()) {
    bits_ = other.bits_;
    return;
  }
  char unused[kMaxDigits + 1];
  *this = ResourceVersion(other.Text(unused));
}

ResourceVersion::ResourceVersion(ResourceVersion&& other) noexcept
    : bits_(std::exchange(other.bits_, 0)) {}

ResourceVersion& ResourceVersion::operator=(const ResourceVersion& other) {
  if (this != &other) *this = ResourceVersion(other);
  return *this;
}

ResourceVersion& ResourceVersion::operator=(ResourceVersion&& other) noexcept {
  if (this != &other) {
    Release();
    bits_ = std::exchange(other.bits_, 0);
  }
  return *this;
}

ResourceVersion::~ResourceVersion() { Release(); }

void ResourceVersion::Release() {
  if (!empty() && !is_number()) ::operator delete(reinterpret_cast<void*>(bits_));
  bits_ = 0;
}

const ResourceVersion::Block* ResourceVersion::block() const {
  return reinterpret_cast<const Block*>(bits_);
}

std::string_view ResourceVersion::Text(char* buffer) const {
  if (empty()) return {};
  if (!is_number()) return {block()->text(), block()->size};
  auto end = std::to_chars(buffer, buffer + kMaxDigits + 1, bits_ >> 1).ptr;
  return {buffer, static_cast<size_t>(end - buffer)};
}

std::string ResourceVersion::str() const {
  char buffer[kMaxDigits + 1];
  return std::string(Text(buffer));
}

bool ResourceVersion::operator==(const ResourceVersion& other) const {
  if (is_number() || other.is_number() || empty() || other.empty()) return bits_ == other.bits_;
  char unused[kMaxDigits + 1];
  return Text(unused) == other.Text(unused);
}

bool ResourceVersion::operator==(std::string_view text) const {
  char buffer[kMaxDigits + 1];
  return Text(buffer) == text;
}

std::ostream& operator<<(std::ostream& out, const ResourceVersion& version) {
  char buffer[kMaxDigits + 1];
  return out << version.Text(buffer);
}

}  // namespace kube
