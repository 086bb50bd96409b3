#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "src/base/InternedString.h"

namespace kube {

// A Kubernetes object UID. The API server makes them UUIDs in canonical
// lowercase text (36 characters), which as a std::string cost 32 bytes plus a
// 48-byte heap block in every cached object, and again in each owner
// reference and claim consumer that names one. A Uid keeps a canonical UUID
// as its 16 bytes and any other text (hand-written objects, tests) interned:
// 24 bytes, no heap block of its own, and it reads back exactly as written.
class Uid {
 public:
  Uid() = default;
  Uid(std::string_view text);  // NOLINT: implicit, like the std::string it replaces
  Uid(const char* text) : Uid(std::string_view(text)) {}
  Uid(const std::string& text) : Uid(std::string_view(text)) {}

  std::string str() const;
  bool empty() const { return !binary() && other_.empty(); }

  // Equal texts have equal representations (a canonical text is always kept
  // binary), so comparing the members compares the texts.
  friend bool operator==(const Uid& a, const Uid& b) {
    return a.high_ == b.high_ && a.low_ == b.low_ && a.other_ == b.other_;
  }
  friend bool operator==(const Uid& a, std::string_view b) { return a.Equals(b); }
  friend bool operator==(const Uid& a, const char* b) { return a.Equals(b); }
  friend bool operator==(const Uid& a, const std::string& b) { return a.Equals(b); }

  friend std::string operator+(const Uid& a, std::string_view b) { return a.str().append(b); }
  friend std::string operator+(const Uid& a, const char* b) { return a.str().append(b); }
  friend std::string operator+(const Uid& a, const std::string& b) { return a.str().append(b); }
  friend std::string operator+(const char* a, const Uid& b) { return std::string(a) + b.str(); }
  friend std::string operator+(const std::string& a, const Uid& b) { return a + b.str(); }

  friend std::ostream& operator<<(std::ostream& out, const Uid& uid);

  // Consistent with ==: equal texts have equal members.
  size_t Hash() const {
    if (!binary()) return std::hash<std::string_view>{}(other_.view());
    return std::hash<uint64_t>{}(high_ ^ (low_ * 0x9e3779b97f4a7c15ULL));
  }

 private:
  bool binary() const { return high_ != 0 || low_ != 0; }
  bool Equals(std::string_view text) const;

  // The UUID's bytes, big-endian halves; both zero when the text is kept in
  // `other_` (the all-zero UUID included, so that zero can mean "none").
  uint64_t high_ = 0;
  uint64_t low_ = 0;
  InternedString other_;
};

}  // namespace kube

template <>
struct std::hash<kube::Uid> {
  size_t operator()(const kube::Uid& uid) const { return uid.Hash(); }
};
