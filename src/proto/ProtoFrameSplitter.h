#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kube {

// Reassembles the frames of a protobuf watch stream (each a 4-byte
// big-endian length, then that many bytes) from arbitrary chunks. A frame
// longer than the limit is passed over by its length, never held, and
// counted; the frames after it are delivered as usual.
class ProtoFrameSplitter {
 public:
  // etcd refuses values over 1.5 MiB, so no object's frame comes near this.
  static constexpr size_t kDefaultMaxFrame = size_t{8} * 1024 * 1024;

  explicit ProtoFrameSplitter(size_t max_frame = kDefaultMaxFrame) : max_frame_(max_frame) {}

  // Calls `on_frame` for each complete frame. Stops and returns false as
  // soon as `on_frame` returns false.
  bool Feed(std::string_view chunk, const std::function<bool(std::string_view)>& on_frame);
  void Reset();
  uint64_t oversized_frames() const { return oversized_frames_; }
  size_t buffer_capacity() const { return pending_.capacity(); }
  // Part of a frame has been read (or is being passed over).
  bool partial() const { return in_frame_ || !header_.empty() || skip_ > 0; }

 private:
  static constexpr size_t kHeaderBytes = 4;

  // Reads the length header from header_; starts skipping when oversized.
  void StartFrame();
  void ReleaseLargeBuffer();

  size_t max_frame_;
  std::string header_;       // the length bytes read so far
  std::string pending_;      // the frame body read so far
  size_t frame_length_ = 0;  // of the frame under way, once its header is read
  size_t skip_ = 0;          // bytes of an oversized frame still to pass over
  bool in_frame_ = false;
  uint64_t oversized_frames_ = 0;
};

}  // namespace kube
