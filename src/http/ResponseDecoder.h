#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/http/HttpTransport.h"

namespace kube {

// Reads one HTTP/1.1 response from a connection's bytes, in whatever pieces
// they arrive, with Boost.Beast's parser: interim 1xx heads are skipped, the
// head is handed over once, then the decoded body as it arrives. All heads
// together, and any framing line or trailer section the parser has to hold
// whole, are capped at `max_header_bytes`; the body at `max_body_bytes` when
// set. Refused as malformed: a Transfer-Encoding other than exactly
// "chunked" (client-go's rule), Content-Length together with
// Transfer-Encoding, and a status outside 100–999.
class ResponseDecoder {
 public:
  // Sees the head before any body byte; an error aborts the response.
  using HeadSink = std::function<Status(const HttpResponse&)>;
  // Receives decoded body bytes; returning false stops the response.
  using BodySink = std::function<bool(std::string_view)>;

  struct Limits {
    size_t max_header_bytes = 0;
    std::optional<uint64_t> max_body_bytes;  // none: streamed without a cap
  };

  ResponseDecoder(Limits limits, bool head_request, HeadSink on_head, BodySink on_body);
  ~ResponseDecoder();
  ResponseDecoder(const ResponseDecoder&) = delete;
  ResponseDecoder& operator=(const ResponseDecoder&) = delete;

  // Consumes `data`. Errors: malformed or oversized framing, a head refused by
  // the head sink, a body over the cap (kTooLarge).
  Status Feed(std::string_view data);
  // The peer closed the connection cleanly: ends a body read to the close;
  // an error when the head or a framed body is cut short.
  Status Close();

  bool received_any() const { return received_any_; }
  bool complete() const { return complete_; }
  bool stopped() const { return stopped_; }
  // Whether the connection can carry another request after this response.
  bool reusable() const { return complete_ && keep_alive_ && !extra_bytes_; }

 private:
  struct Parser;

  Status Parse(std::string_view& data);
  Status FinishHead();
  Status StartNextHead();
  Status Explain(const std::string& error) const;
  bool Deliver(std::string_view bytes);

  Limits limits_;
  bool head_request_;
  HeadSink on_head_;
  BodySink on_body_;
  std::unique_ptr<Parser> parser_;
  std::string pending_;      // bytes the parser needs more of before it can use them
  size_t header_bytes_ = 0;  // of the interim heads already read
  uint64_t body_bytes_ = 0;
  bool head_done_ = false;
  bool received_any_ = false;
  bool complete_ = false;
  bool stopped_ = false;
  bool too_large_ = false;
  bool keep_alive_ = false;
  bool extra_bytes_ = false;
};

}  // namespace kube
