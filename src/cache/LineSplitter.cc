#include "src/cache/LineSplitter.h"

namespace kube {
namespace {

constexpr size_t kRetainedBuffer = size_t{64} * 1024;

}  // namespace

void LineSplitter::Reset() {
  pending_.clear();
  skipping_ = false;
  ReleaseLargeBuffer();
}

void LineSplitter::ReleaseLargeBuffer() {
  if (pending_.capacity() > kRetainedBuffer) std::string().swap(pending_);
}

void LineSplitter::Append(std::string_view part) {
  if (skipping_) return;
  if (pending_.size() + part.size() > max_line_) {
    ++oversized_lines_;
    skipping_ = true;
    pending_.clear();
    ReleaseLargeBuffer();
    return;
  }
  pending_.append(part);
}

bool LineSplitter::Feed(std::string_view chunk,
                        const std::function<bool(std::string_view)>& on_line) {
  while (!chunk.empty()) {
    size_t newline = chunk.find('\n');
    if (newline == std::string_view::npos) {
      Append(chunk);
      return true;
    }
    std::string_view line;
    if (pending_.empty() && !skipping_) {
      line = chunk.substr(0, newline);  // the common case: no copy
      if (line.size() > max_line_) {
        ++oversized_lines_;
        line = {};
      }
    } else {
      Append(chunk.substr(0, newline));
      line = pending_;
    }
    chunk.remove_prefix(newline + 1);
    bool keep_going = line.empty() || on_line(line);
    pending_.clear();
    skipping_ = false;
    ReleaseLargeBuffer();
    if (!keep_going) return false;
  }
  return true;
}

}  // namespace kube
