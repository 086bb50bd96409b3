#include "src/cache/LineSplitter.h"

namespace kube {

bool LineSplitter::Feed(std::string_view chunk,
                        const std::function<bool(std::string_view)>& on_line) {
  while (!chunk.empty()) {
    size_t newline = chunk.find('\n');
    if (newline == std::string_view::npos) {
      pending_.append(chunk);
      return pending_.size() <= kMaxLine;
    }
    std::string_view line;
    if (pending_.empty()) {
      line = chunk.substr(0, newline);  // the common case: no copy
    } else {
      pending_.append(chunk.substr(0, newline));
      line = pending_;
    }
    chunk.remove_prefix(newline + 1);
    bool keep_going = line.empty() || on_line(line);
    pending_.clear();
    if (!keep_going) return false;
  }
  return true;
}

}  // namespace kube
