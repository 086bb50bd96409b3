#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace kube {

// Reassembles newline-delimited records (watch events) from arbitrary
// chunks. A record split across chunks is delivered once complete; a partial
// record left when the stream ends is dropped by Reset().
class LineSplitter {
 public:
  static constexpr size_t kMaxLine = 64 * 1024 * 1024;

  // Calls `on_line` for each complete line (without the newline). Stops and
  // returns false as soon as `on_line` returns false, or when a single line
  // exceeds kMaxLine.
  bool Feed(std::string_view chunk, const std::function<bool(std::string_view)>& on_line);
  void Reset() { pending_.clear(); }
  size_t pending_bytes() const { return pending_.size(); }

 private:
  std::string pending_;
};

}  // namespace kube
