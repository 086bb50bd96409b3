#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kube {

// Reassembles newline-delimited records (watch events) from arbitrary
// chunks. A record split across chunks is delivered once complete; a partial
// record left when the stream ends is dropped by Reset(). A record longer
// than the limit is dropped as it arrives (its bytes are never all held) and
// counted; the records after it are delivered as usual.
class LineSplitter {
 public:
  // etcd refuses values over 1.5 MiB, so no object's JSON comes near this.
  static constexpr size_t kDefaultMaxLine = size_t{8} * 1024 * 1024;

  explicit LineSplitter(size_t max_line = kDefaultMaxLine) : max_line_(max_line) {}

  // Calls `on_line` for each complete line (without the newline). Stops and
  // returns false as soon as `on_line` returns false.
  bool Feed(std::string_view chunk, const std::function<bool(std::string_view)>& on_line);
  void Reset();
  size_t pending_bytes() const { return pending_.size(); }
  // Bytes held for the line being reassembled, including spare capacity.
  size_t buffer_capacity() const { return pending_.capacity(); }
  uint64_t oversized_lines() const { return oversized_lines_; }

 private:
  void Append(std::string_view part);
  void ReleaseLargeBuffer();

  size_t max_line_;
  std::string pending_;
  bool skipping_ = false;  // dropping the rest of an oversized line
  uint64_t oversized_lines_ = 0;
};

}  // namespace kube
