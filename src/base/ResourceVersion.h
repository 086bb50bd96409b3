#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace kube {

// An object's metadata.resourceVersion: opaque text to clients, in practice
// the decimal etcd revision. Every cached object keeps one, and as a
// std::string it costs 32 bytes. A ResourceVersion is one word: a canonical
// decimal (no leading zero, below 2^63) is kept as its number, anything else
// in a heap block of its own. Either way it reads back exactly as written,
// and only equality is defined: versions are not ordered for clients.
class ResourceVersion {
 public:
  ResourceVersion() = default;
  ResourceVersion(std::string_view text);  // NOLINT: implicit, like the std::string it replaces
  ResourceVersion(const char* text) : ResourceVersion(std::string_view(text)) {}         // NOLINT
  ResourceVersion(const std::string& text) : ResourceVersion(std::string_view(text)) {}  // NOLINT
  ResourceVersion(const ResourceVersion& other);
  ResourceVersion(ResourceVersion&& other) noexcept;
  ResourceVersion& operator=(const ResourceVersion& other);
  ResourceVersion& operator=(ResourceVersion&& other) noexcept;
  ~ResourceVersion();

  std::string str() const;
  operator std::string() const { return str(); }  // NOLINT: for code that took the std::string
  bool empty() const { return bits_ == 0; }

  // Equal texts have equal representations (a canonical decimal is always
  // kept as a number), so numbers compare as numbers and texts as texts.
  bool operator==(const ResourceVersion& other) const;
  bool operator==(std::string_view text) const;
  bool operator==(const char* text) const { return *this == std::string_view(text); }
  bool operator==(const std::string& text) const { return *this == std::string_view(text); }

  friend std::ostream& operator<<(std::ostream& out, const ResourceVersion& version);

 private:
  // Low bit set: the number, shifted left by one. Otherwise a pointer to a
  // Block (aligned, so its low bit is clear), or 0 for the empty text.
  struct Block;
  static constexpr uint64_t kNumberTag = 1;

  bool is_number() const { return (bits_ & kNumberTag) != 0; }
  const Block* block() const;
  // Writes the number's digits into `buffer` (20 bytes suffice) and returns
  // them, or returns the kept text.
  std::string_view Text(char* buffer) const;
  void Release();

  uint64_t bits_ = 0;
};

}  // namespace kube
