#include "src/http/ResponseDecoder.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <limits>

#include "src/base/AsciiText.h"

namespace kube {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

// A Beast body that keeps nothing: each decoded piece goes to a callback,
// which can stop the response by returning false.
struct SinkBody {
  struct value_type {
    const std::function<bool(std::string_view)>* deliver = nullptr;
  };

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : body_(body) {}

    void init(const boost::optional<std::uint64_t>&, beast::error_code& ec) { ec = {}; }

    template <class ConstBufferSequence>
    size_t put(const ConstBufferSequence& buffers, beast::error_code& ec) {
      ec = {};
      size_t used = 0;
      for (auto it = asio::buffer_sequence_begin(buffers); it != asio::buffer_sequence_end(buffers);
           ++it) {
        asio::const_buffer piece = *it;
        used += piece.size();
        if (!(*body_.deliver)(
                std::string_view(static_cast<const char*>(piece.data()), piece.size()))) {
          ec = beast::errc::make_error_code(beast::errc::operation_canceled);
          return used;
        }
      }
      return used;
    }

    void finish(beast::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

Status Malformed(const std::string& what) {
  return Status(StatusCode::kUnavailable, "malformed HTTP response: " + what);
}

}  // namespace

struct ResponseDecoder::Parser {
  std::function<bool(std::string_view)> deliver;
  std::optional<http::response_parser<SinkBody>> http;
};

ResponseDecoder::ResponseDecoder(Limits limits, bool head_request, HeadSink on_head,
                                 BodySink on_body)
    : limits_(limits),
      head_request_(head_request),
      on_head_(std::move(on_head)),
      on_body_(std::move(on_body)),
      parser_(std::make_unique<Parser>()) {
  parser_->deliver = [this](std::string_view bytes) { return Deliver(bytes); };
  (void)StartNextHead();  // the first head's cap is the whole cap: never an error
}

ResponseDecoder::~ResponseDecoder() = default;

Status ResponseDecoder::StartNextHead() {
  if (header_bytes_ >= limits_.max_header_bytes) return Explain("header_limit");
  auto& parser = parser_->http.emplace();
  parser.get().body().deliver = &parser_->deliver;
  parser.header_limit(static_cast<std::uint32_t>(std::min<size_t>(
      limits_.max_header_bytes - header_bytes_, std::numeric_limits<std::uint32_t>::max())));
  // The largest value rather than boost::none: Beast 1.74 compares a
  // Content-Length with an empty limit as exceeding it.
  parser.body_limit(limits_.max_body_bytes.value_or(std::numeric_limits<std::uint64_t>::max()));
  parser.eager(false);  // stop after the head, so it is checked before any body byte
  if (head_request_) parser.skip(true);
  return Status::Ok();
}

bool ResponseDecoder::Deliver(std::string_view bytes) {
  body_bytes_ += bytes.size();
  if (limits_.max_body_bytes && body_bytes_ > *limits_.max_body_bytes) {
    too_large_ = true;
    return false;
  }
  if (on_body_(bytes)) return true;
  stopped_ = true;
  return false;
}

Status ResponseDecoder::Explain(const std::string& error) const {
  if (error == "header_limit") {
    return Status(StatusCode::kUnavailable, "response headers exceed " +
                                                std::to_string(limits_.max_header_bytes) +
                                                " bytes (RestConfig::max_response_header_bytes)");
  }
  if (error == "body_limit") {
    return Status(StatusCode::kTooLarge, "response body exceeds " +
                                             std::to_string(limits_.max_body_bytes.value_or(0)) +
                                             " bytes (RestConfig::max_response_body_bytes)");
  }
  return Malformed(error);
}

Status ResponseDecoder::Feed(std::string_view data) {
  if (!data.empty()) received_any_ = true;
  if (complete_ || stopped_) {
    extra_bytes_ = extra_bytes_ || !data.empty();
    return Status::Ok();
  }
  std::string held;
  if (!pending_.empty()) {
    held = std::move(pending_);
    pending_.clear();
    held.append(data);
    data = held;
  }
  KUBE_RETURN_IF_ERROR(Parse(data));
  if (complete_ || stopped_) {
    extra_bytes_ = extra_bytes_ || !data.empty();
    return Status::Ok();
  }
  // Heads are capped by the parser; what else it must hold whole (a chunk
  // size line, the trailers) is capped here.
  if (data.size() > limits_.max_header_bytes) {
    return Status(StatusCode::kUnavailable, "response framing or trailers exceed " +
                                                std::to_string(limits_.max_header_bytes) +
                                                " bytes (RestConfig::max_response_header_bytes)");
  }
  pending_.assign(data);
  return Status::Ok();
}

Status ResponseDecoder::Parse(std::string_view& data) {
  while (!data.empty() && !complete_ && !stopped_) {
    auto& parser = *parser_->http;
    beast::error_code ec;
    size_t used = parser.put(asio::buffer(data.data(), data.size()), ec);
    data.remove_prefix(std::min(used, data.size()));
    if (too_large_) return Explain("body_limit");
    if (stopped_) return Status::Ok();
    if (ec == http::error::need_more) {
      if (used == 0) return Status::Ok();
      continue;
    }
    if (ec == http::error::header_limit) return Explain("header_limit");
    if (ec == http::error::body_limit) return Explain("body_limit");
    if (ec) return Malformed(ec.message());
    if (!head_done_ && parser.is_header_done()) {
      bool interim = parser.get().result_int() >= 100 && parser.get().result_int() < 200;
      if (interim) header_bytes_ += used;
      KUBE_RETURN_IF_ERROR(FinishHead());
      if (interim) continue;
    }
    if (parser_->http->is_done()) {
      complete_ = true;
      keep_alive_ = parser_->http->keep_alive();
    }
  }
  return Status::Ok();
}

Status ResponseDecoder::FinishHead() {
  auto& parser = *parser_->http;
  const auto& message = parser.get();
  int status = message.result_int();
  if (status < 100 || status > 999) return Malformed("status " + std::to_string(status));
  if (status == 101) return Malformed("101 Switching Protocols to a request without Upgrade");
  if (status < 200) return StartNextHead();  // an interim head: the real one follows
  auto coding = message.find(http::field::transfer_encoding);
  if (coding != message.end() &&
      AsciiText::Lower(AsciiText::Trim(
          std::string_view(coding->value().data(), coding->value().size()))) != "chunked") {
    return Malformed("unsupported Transfer-Encoding \"" +
                     std::string(coding->value().substr(0, 64)) + "\"");
  }
  HttpResponse head;
  head.status = status;
  for (const auto& field : message) {
    std::string name =
        AsciiText::Lower(std::string_view(field.name_string().data(), field.name_string().size()));
    std::string value(field.value().data(), field.value().size());
    auto [it, inserted] = head.headers.emplace(std::move(name), value);
    if (!inserted) it->second += ", " + value;
  }
  head_done_ = true;
  parser.eager(true);
  return on_head_(head);
}

Status ResponseDecoder::Close() {
  if (complete_ || stopped_) return Status::Ok();
  if (!head_done_) {
    return Status(StatusCode::kUnavailable,
                  received_any_ ? "connection closed in the middle of the response head"
                                : "connection closed before a response");
  }
  beast::error_code ec;
  if (pending_.empty()) parser_->http->put_eof(ec);
  if (!pending_.empty() || ec) {
    return Status(StatusCode::kUnavailable, "connection closed before the end of the body");
  }
  complete_ = true;
  keep_alive_ = false;
  return Status::Ok();
}

}  // namespace kube
