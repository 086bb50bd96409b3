#include "src/cache/WatchStreamReader.h"

#include <string>

#include "src/cache/ProtoWatchDecoder.h"

namespace kube {

WatchStreamReader::WatchStreamReader(WatchDecoder& decoder, DecodeErrorReporter& errors,
                                     size_t max_event_bytes)
    : decoder_(decoder),
      errors_(errors),
      max_event_bytes_(max_event_bytes),
      lines_(max_event_bytes),
      frames_(max_event_bytes) {}

void WatchStreamReader::Reset() {
  lines_.Reset();
  frames_.Reset();
  format_ = Format::kUnknown;
  oversized_lines_reported_ = lines_.oversized_lines();
  oversized_frames_reported_ = frames_.oversized_frames();
}

bool WatchStreamReader::Feed(std::string_view chunk, Handler& handler) {
  if (chunk.empty()) return true;
  if (format_ == Format::kUnknown) {
    format_ = chunk.front() == '\0' ? Format::kProtobuf : Format::kJson;
  }
  auto handled = [&](std::string_view piece) {
    Status status = Decode(piece, handler);
    handler.Handled();
    return status.ok();
  };
  if (format_ == Format::kProtobuf) {
    bool go_on = frames_.Feed(chunk, handled);
    ReportOversized(frames_.oversized_frames(), oversized_frames_reported_, "watch frame");
    return go_on;
  }
  bool go_on = lines_.Feed(chunk, handled);
  ReportOversized(lines_.oversized_lines(), oversized_lines_reported_, "watch line");
  return go_on;
}

bool WatchStreamReader::partial() const {
  return format_ == Format::kProtobuf ? frames_.partial() : lines_.pending_bytes() > 0;
}

Status WatchStreamReader::Decode(std::string_view piece, Handler& handler) {
  if (format_ == Format::kProtobuf) {
    auto event = ProtoWatchDecoder::Decode(piece);
    if (!event.ok()) return handler.Undecodable(ProtoWatchDecoder::Salvage(piece), event.status());
    return handler.Event(*event);
  }
  auto event = decoder_.Decode(piece);
  if (!event.ok()) return handler.Undecodable(decoder_.SalvageEvent(piece), event.status());
  return handler.Event(*event);
}

void WatchStreamReader::ReportOversized(uint64_t oversized, uint64_t& reported, const char* what) {
  for (; reported < oversized; ++reported) {
    errors_.Report(
        "", Status(StatusCode::kParseError, std::string(what) + " longer than " +
                                                std::to_string(max_event_bytes_) + " bytes"));
  }
}

}  // namespace kube
