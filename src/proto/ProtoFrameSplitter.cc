#include "src/proto/ProtoFrameSplitter.h"

#include <algorithm>

namespace kube {
namespace {

constexpr size_t kRetainedBuffer = size_t{64} * 1024;

}  // namespace

void ProtoFrameSplitter::Reset() {
  header_.clear();
  pending_.clear();
  frame_length_ = 0;
  skip_ = 0;
  in_frame_ = false;
  ReleaseLargeBuffer();
}

void ProtoFrameSplitter::ReleaseLargeBuffer() {
  if (pending_.capacity() > kRetainedBuffer) std::string().swap(pending_);
}

void ProtoFrameSplitter::StartFrame() {
  size_t length = 0;
  for (char byte : header_) length = (length << 8) | static_cast<unsigned char>(byte);
  header_.clear();
  if (length > max_frame_) {
    ++oversized_frames_;
    skip_ = length;
    return;
  }
  frame_length_ = length;
  in_frame_ = true;
}

bool ProtoFrameSplitter::Feed(std::string_view chunk,
                              const std::function<bool(std::string_view)>& on_frame) {
  while (!chunk.empty()) {
    if (skip_ > 0) {
      size_t n = std::min(skip_, chunk.size());
      skip_ -= n;
      chunk.remove_prefix(n);
      continue;
    }
    if (!in_frame_) {
      size_t n = std::min(kHeaderBytes - header_.size(), chunk.size());
      header_.append(chunk.substr(0, n));
      chunk.remove_prefix(n);
      if (header_.size() == kHeaderBytes) StartFrame();
      if (!in_frame_) continue;
    }
    std::string_view frame;
    if (pending_.empty() && chunk.size() >= frame_length_) {
      frame = chunk.substr(0, frame_length_);  // the common case: no copy
      chunk.remove_prefix(frame_length_);
    } else {
      size_t n = std::min(frame_length_ - pending_.size(), chunk.size());
      pending_.append(chunk.substr(0, n));
      chunk.remove_prefix(n);
      if (pending_.size() < frame_length_) return true;
      frame = pending_;
    }
    in_frame_ = false;
    bool keep_going = on_frame(frame);
    pending_.clear();
    ReleaseLargeBuffer();
    if (!keep_going) return false;
  }
  return true;
}

}  // namespace kube
