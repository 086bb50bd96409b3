#pragma once

#include <cstdint>
#include <string_view>

#include "src/base/Result.h"
#include "src/cache/DecodeErrorReporter.h"
#include "src/cache/LineSplitter.h"
#include "src/cache/WatchDecoder.h"
#include "src/proto/ProtoFrameSplitter.h"

namespace kube {

// Cuts a watch response body, as its chunks arrive, into events and decodes
// them: JSON lines, or length-delimited protobuf frames when the stream's
// first byte is 0 (a frame under 16 MiB starts with its 4-byte big-endian
// length; a JSON stream with '{'). Lines and frames over the size limit are
// passed over and reported as undecodable.
class WatchStreamReader {
 public:
  class Handler {
   public:
    virtual ~Handler() = default;
    // An error ends the stream.
    virtual Status Event(const RawWatchEvent& event) = 0;
    // An event that cannot be decoded, with what could be read of it.
    virtual Status Undecodable(const Result<SalvagedObject>& salvaged, const Status& error) = 0;
    // After each line or frame, decoded or not.
    virtual void Handled() = 0;
  };

  WatchStreamReader(WatchDecoder& decoder, DecodeErrorReporter& errors, size_t max_event_bytes);

  // Forgets the stream under way: the next chunk starts a new one.
  void Reset();
  // False when a handler call failed: the stream is to end.
  bool Feed(std::string_view chunk, Handler& handler);
  // Part of an event is buffered.
  bool partial() const;

 private:
  enum class Format : uint8_t { kUnknown, kJson, kProtobuf };

  Status Decode(std::string_view piece, Handler& handler);
  void ReportOversized(uint64_t oversized, uint64_t& reported, const char* what);

  WatchDecoder& decoder_;
  DecodeErrorReporter& errors_;
  size_t max_event_bytes_;
  LineSplitter lines_;
  ProtoFrameSplitter frames_;
  Format format_ = Format::kUnknown;
  uint64_t oversized_lines_reported_ = 0;
  uint64_t oversized_frames_reported_ = 0;
};

}  // namespace kube
