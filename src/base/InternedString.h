#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>

namespace kube {

// An immutable string stored once per process however many objects hold it:
// attribute names such as "resource.kubernetes.io/pcieRoot" and values such as
// a GPU model repeat on every device of a fleet, and a cached std::string of
// them costs 32 bytes inline plus a heap block each time. An InternedString
// is one pointer to a reference-counted entry in a process-wide pool; the
// entry is freed with its last holder, so a stream of distinct values does not
// grow the pool for ever. Equal texts share one entry, so equality is a
// pointer comparison. Copies are thread-safe (atomic count); the pool is
// sharded and locked.
class InternedString {
 public:
  InternedString() = default;             // ""
  InternedString(std::string_view text);  // NOLINT: implicit, like std::string's
  InternedString(const char* text) : InternedString(std::string_view(text)) {}
  InternedString(const std::string& text) : InternedString(std::string_view(text)) {}
  InternedString(const InternedString& other);
  InternedString(InternedString&& other) noexcept : entry_(other.entry_) { other.entry_ = nullptr; }
  InternedString& operator=(const InternedString& other);
  InternedString& operator=(InternedString&& other) noexcept;
  ~InternedString();

  std::string_view view() const;
  std::string str() const { return std::string(view()); }
  operator std::string_view() const { return view(); }  // NOLINT: reads like a string
  size_t size() const { return view().size(); }
  bool empty() const { return entry_ == nullptr; }

  friend bool operator==(const InternedString& a, const InternedString& b) {
    return a.entry_ == b.entry_;
  }
  friend bool operator==(const InternedString& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const InternedString& a, const char* b) {
    return a.view() == std::string_view(b);
  }
  friend bool operator==(const InternedString& a, const std::string& b) { return a.view() == b; }
  friend std::strong_ordering operator<=>(const InternedString& a, const InternedString& b) {
    return a.view() <=> b.view();
  }

  // Concatenation reads like std::string's and yields one.
  friend std::string operator+(const InternedString& a, std::string_view b) {
    return Concat(a.view(), b);
  }
  friend std::string operator+(const InternedString& a, const char* b) {
    return Concat(a.view(), b);
  }
  friend std::string operator+(const InternedString& a, const std::string& b) {
    return Concat(a.view(), b);
  }
  friend std::string operator+(const char* a, const InternedString& b) {
    return Concat(a, b.view());
  }
  friend std::string operator+(const std::string& a, const InternedString& b) {
    return Concat(a, b.view());
  }
  friend std::string operator+(const InternedString& a, const InternedString& b) {
    return Concat(a.view(), b.view());
  }

  // Distinct texts held right now, over all shards (for tests and benches).
  static size_t PoolSize();

  struct Entry;

 private:
  static std::string Concat(std::string_view a, std::string_view b) {
    std::string out;
    out.reserve(a.size() + b.size());
    out.append(a).append(b);
    return out;
  }
  void Release();

  Entry* entry_ = nullptr;  // nullptr is ""
};

}  // namespace kube
