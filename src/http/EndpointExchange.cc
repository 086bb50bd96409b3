#include "src/http/EndpointExchange.h"

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdint>
#include <limits>
#include <string>

namespace kube {

namespace http = boost::beast::http;

struct EndpointExchange::Parser {
  http::request_parser<http::string_body> beast;
  std::string pending;  // bytes the parser has not consumed yet
  bool finished = false;
};

namespace {

int StatusFor(const boost::beast::error_code& error) {
  if (error == http::error::header_limit) return 431;
  if (error == http::error::body_limit || error == http::error::buffer_overflow) return 413;
  return 400;
}

std::string FieldOf(const http::request<http::string_body>& message, http::field field) {
  auto found = message.find(field);
  return found == message.end() ? std::string() : std::string(found->value());
}

}  // namespace

EndpointExchange::EndpointExchange(const EndpointRouter& router)
    : router_(router), parser_(std::make_unique<Parser>()) {
  parser_->beast.header_limit(kMaxHeadBytes);
  // The parser would check a Content-Length against its body limit as the
  // head completes, before the route is known (a POST to a probe would get
  // 413, not 405). AdmitHead sets the route's limit before any body byte
  // is read or room is reserved for it.
  parser_->beast.body_limit(std::numeric_limits<std::uint64_t>::max());
}

EndpointExchange::~EndpointExchange() = default;

EndpointExchange::Step EndpointExchange::Feed(std::string_view bytes) {
  if (parser_->finished) return Step::kNeedMore;
  parser_->pending.append(bytes);
  if (awaiting_admission_) return Step::kNeedMore;
  return Parse();
}

EndpointExchange::Step EndpointExchange::Admitted() {
  if (!awaiting_admission_ || parser_->finished) return Step::kNeedMore;
  awaiting_admission_ = false;
  parser_->beast.body_limit(route_->max_body_bytes);
  if (parser_->beast.is_done()) return Ready();
  return Parse();
}

EndpointExchange::Step EndpointExchange::Parse() {
  while (!parser_->pending.empty()) {
    boost::beast::error_code error;
    std::size_t used = parser_->beast.put(
        boost::asio::const_buffer(parser_->pending.data(), parser_->pending.size()), error);
    parser_->pending.erase(0, used);
    if (error == http::error::need_more) break;
    if (error) {
      int status = StatusFor(error);
      return Reject(status, (status == 400 ? "malformed request: " : "request too large: ") +
                                error.message() + "\n");
    }
    if (parser_->beast.is_header_done() && !admitted_) {
      Step admitted = AdmitHead();
      if (admitted != Step::kNeedMore) return admitted;
    }
    if (awaiting_admission_) return Step::kAdmitHead;
    if (parser_->beast.is_done()) return Ready();
    if (used == 0) break;  // nothing taken without an error: wait for more
  }
  // A head still incomplete at the limit is caught by the parser; this
  // bounds what it is given to rescan.
  if (parser_->pending.size() > kMaxHeadBytes) {
    return Reject(431, "request head too large\n");
  }
  return Step::kNeedMore;
}

EndpointExchange::Step EndpointExchange::FeedEnd() {
  if (parser_->finished) return Step::kNeedMore;
  return Reject(400, "incomplete request\n");
}

EndpointExchange::Step EndpointExchange::AdmitHead() {
  admitted_ = true;
  auto& message = parser_->beast.get();
  auto content_length = parser_->beast.content_length();
  bool chunked = parser_->beast.chunked();
  if (message.find(http::field::transfer_encoding) != message.end() && !chunked) {
    return Reject(400, "unsupported Transfer-Encoding\n");
  }
  bool has_body = chunked || (content_length && *content_length > 0);
  std::string_view method(message.method_string().data(), message.method_string().size());
  std::string_view target(message.target().data(), message.target().size());
  auto rejected = router_.Admit(method, target, has_body, route_);
  if (rejected) {
    rejection_ = std::move(*rejected);
    parser_->finished = true;
    head_only_ = method == "HEAD";
    return Step::kReject;
  }
  if (content_length && *content_length > route_->max_body_bytes) {
    return Reject(413, "request body too large\n");
  }
  head_only_ = method == "HEAD";
  if (route_->admit_head) {
    // Not one body byte before the route's admission: the parser waits.
    TakeHead();
    awaiting_admission_ = true;
    return Step::kNeedMore;
  }
  parser_->beast.body_limit(route_->max_body_bytes);
  return Step::kNeedMore;
}

void EndpointExchange::TakeHead() {
  auto& message = parser_->beast.get();
  request_.method = std::string(message.method_string());
  std::string_view target(message.target().data(), message.target().size());
  request_.path = std::string(target.substr(0, target.find('?')));
  request_.authorization = FieldOf(message, http::field::authorization);
  request_.content_type = FieldOf(message, http::field::content_type);
}

EndpointExchange::Step EndpointExchange::Ready() {
  parser_->finished = true;
  TakeHead();
  request_.body = std::move(parser_->beast.get().body());
  return Step::kReady;
}

EndpointExchange::Step EndpointExchange::Reject(int status, std::string body) {
  parser_->finished = true;
  rejection_ = EndpointRouter::Error(status, std::move(body));
  return Step::kReject;
}

}  // namespace kube
