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
// 16 bytes, no heap block of its own, and it reads back exactly as written.
class Uid {
 public:
  Uid() : text_() {}
  Uid(std::string_view text);  // NOLINT: implicit, like the std::string it replaces
  Uid(const char* text) : Uid(std::string_view(text)) {}
  Uid(const std::string& text) : Uid(std::string_view(text)) {}
  Uid(const Uid& other) { CopyFrom(other); }
  Uid(Uid&& other) noexcept { MoveFrom(std::move(other)); }
  Uid& operator=(const Uid& other);
  Uid& operator=(Uid&& other) noexcept;
  ~Uid() { DestroyText(); }

  std::string str() const;
  bool empty() const { return !binary() && text_.empty(); }

  // Equal texts have equal representations (a canonical text is always kept
  // binary, other texts are interned), so comparing the members compares
  // the texts.
  friend bool operator==(const Uid& a, const Uid& b) {
    if (a.high_ != b.high_) return false;
    return a.binary() ? a.low_ == b.low_ : a.text_ == b.text_;
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
    if (!binary()) return std::hash<std::string_view>{}(text_.view());
    return std::hash<uint64_t>{}(high_ ^ (low_ * 0x9e3779b97f4a7c15ULL));
  }

 private:
  // In `high_`, marks a text kept in `text_`. A canonical UUID whose first
  // half is all ones is kept as text too, so the marker stays unambiguous.
  static constexpr uint64_t kTextMarker = ~uint64_t{0};

  bool binary() const { return high_ != kTextMarker; }
  bool Equals(std::string_view text) const;
  void CopyFrom(const Uid& other);
  void MoveFrom(Uid&& other) noexcept;
  void DestroyText() {
    if (!binary()) text_.~InternedString();
  }

  // The UUID's bytes as big-endian halves, or the marker and the text.
  uint64_t high_ = kTextMarker;
  union {
    uint64_t low_;
    InternedString text_;
  };
};

}  // namespace kube

template <>
struct std::hash<kube::Uid> {
  size_t operator()(const kube::Uid& uid) const { return uid.Hash(); }
};
