#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/Status.h"
#include "src/http/HttpTransport.h"

namespace kube {

// Reads an HTTP/1.1 response from the bytes of a connection, in whatever
// pieces they arrive: the head (1xx heads skipped, all heads together capped
// at `max_header_bytes`), then the body as framed by Content-Length, chunked
// transfer coding or the end of the connection. Body bytes go to a callback
// as they are decoded; the parser keeps only an unfinished line.
class ResponseParser {
 public:
  // Receives decoded body bytes; returning false stops the response.
  using BodySink = std::function<bool(std::string_view)>;
  // Sees the head once it is read, before any of the body; an error aborts.
  using HeadCheck = std::function<Status(const ResponseParser&)>;

  ResponseParser(size_t max_header_bytes, bool head_request)
      : max_header_bytes_(max_header_bytes), head_request_(head_request) {}

  // Consumes `data`. Errors: a malformed or oversized head or chunk framing.
  Status Feed(std::string_view data, const HeadCheck& check, const BodySink& sink);
  // The connection ended: completes a body read to the end of the
  // connection; an error when the head or a framed body is cut short.
  Status Close();
  // Whether any byte of a response arrived.
  bool received_any() const { return received_any_; }

  bool head_done() const { return state_ != State::kHead; }
  const HttpResponse& head() const { return head_; }
  // Content-Length, once the head is read (absent when chunked or unframed).
  std::optional<uint64_t> content_length() const { return content_length_; }
  bool complete() const { return state_ == State::kDone; }
  bool stopped() const { return stopped_; }
  // Whether the connection can carry another request after this response.
  bool reusable() const { return complete() && framed_ && !close_requested_; }

 private:
  enum class State {
    kHead,
    kLength,
    kChunkSize,
    kChunkData,
    kChunkEnd,
    kTrailers,
    kToClose,
    kDone
  };

  size_t FeedHead(std::string_view data, Status& status);
  Status ParseHead(std::string_view head);
  Status StartBody();
  size_t FeedBody(std::string_view data, const BodySink& sink, Status& status);
  size_t FeedChunkLine(std::string_view data, Status& status);
  bool Deliver(std::string_view bytes, const BodySink& sink);

  size_t max_header_bytes_;
  bool head_request_;
  State state_ = State::kHead;
  HttpResponse head_;
  std::string line_;  // an unfinished head, chunk-size line or trailer
  size_t header_bytes_ = 0;
  std::optional<uint64_t> content_length_;
  uint64_t remaining_ = 0;  // of the Content-Length body or the current chunk
  bool framed_ = false;
  bool close_requested_ = false;
  bool stopped_ = false;
  bool received_any_ = false;
};

}  // namespace kube
