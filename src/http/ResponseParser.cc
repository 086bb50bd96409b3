#include "src/http/ResponseParser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "src/base/AsciiText.h"

namespace kube {
namespace {

// A chunk-size line is a hex number and optional extensions: far below this.
constexpr size_t kMaxChunkLine = 4096;

Status Malformed(const std::string& what) {
  return Status(StatusCode::kUnavailable, "malformed HTTP response: " + what);
}

// "12", or "12, 12" (a repeated header): one value, digits only.
bool ParseContentLength(std::string_view text, uint64_t& length) {
  std::optional<uint64_t> seen;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view part = AsciiText::Trim(text.substr(0, comma));
    uint64_t value = 0;
    auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc() || end != part.data() + part.size()) return false;
    if (seen && *seen != value) return false;
    seen = value;
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  if (!seen) return false;
  length = *seen;
  return true;
}

}  // namespace

Status ResponseParser::Feed(std::string_view data, const HeadCheck& check, const BodySink& sink) {
  if (!data.empty()) received_any_ = true;
  while (!data.empty() && !stopped_) {
    if (state_ == State::kDone) {
      close_requested_ = true;  // bytes past the response: do not reuse the connection
      return Status::Ok();
    }
    Status status = Status::Ok();
    size_t used = 0;
    if (state_ == State::kHead) {
      used = FeedHead(data, status);
      if (status.ok() && head_done() && check) status = check(*this);
    } else if (state_ == State::kChunkSize || state_ == State::kChunkEnd ||
               state_ == State::kTrailers) {
      used = FeedChunkLine(data, status);
    } else {
      used = FeedBody(data, sink, status);
    }
    if (!status.ok()) return status;
    data.remove_prefix(used);
  }
  return Status::Ok();
}

size_t ResponseParser::FeedHead(std::string_view data, Status& status) {
  size_t old = line_.size();
  line_.append(data);
  size_t end = line_.find("\r\n\r\n", old >= 3 ? old - 3 : 0);
  size_t head_size = end == std::string::npos ? line_.size() : end + 4;
  if (header_bytes_ + head_size > max_header_bytes_) {
    status = Status(StatusCode::kUnavailable, "response headers exceed " +
                                                  std::to_string(max_header_bytes_) +
                                                  " bytes (RestConfig::max_response_header_bytes)");
    return data.size();
  }
  if (end == std::string::npos) return data.size();
  header_bytes_ += head_size;
  std::string head = line_.substr(0, head_size);
  line_.clear();
  status = ParseHead(head);
  return head_size - old;
}

Status ResponseParser::ParseHead(std::string_view head) {
  size_t line_end = head.find("\r\n");
  std::string_view status_line = head.substr(0, line_end);
  int code = 0;
  if (status_line.size() < 12 || status_line.substr(0, 7) != "HTTP/1." || status_line[8] != ' ' ||
      std::from_chars(status_line.data() + 9, status_line.data() + 12, code).ptr !=
          status_line.data() + 12) {
    return Malformed("status line \"" + std::string(status_line.substr(0, 64)) + "\"");
  }
  head_.status = code;
  head_.headers.clear();
  for (size_t start = line_end + 2; start < head.size();) {
    size_t end = head.find("\r\n", start);
    std::string_view line = head.substr(start, end - start);
    start = end + 2;
    size_t colon = line.find(':');
    if (line.empty() || colon == std::string_view::npos) continue;
    std::string name = AsciiText::Lower(AsciiText::Trim(line.substr(0, colon)));
    std::string value(AsciiText::Trim(line.substr(colon + 1)));
    auto [it, inserted] = head_.headers.emplace(name, value);
    if (!inserted) it->second += ", " + value;
  }
  if (code >= 100 && code < 200) return Status::Ok();  // an interim head: the real one follows
  return StartBody();
}

Status ResponseParser::StartBody() {
  framed_ = true;
  close_requested_ =
      AsciiText::Lower(head_.Header("connection")).find("close") != std::string::npos;
  if (head_request_ || head_.status == 204 || head_.status == 304) {
    state_ = State::kDone;
    return Status::Ok();
  }
  std::string coding = AsciiText::Lower(head_.Header("transfer-encoding"));
  if (!coding.empty()) {
    bool chunked = AsciiText::Trim(coding).size() >= 7 &&
                   AsciiText::Trim(coding).substr(AsciiText::Trim(coding).size() - 7) == "chunked";
    framed_ = chunked;
    state_ = chunked ? State::kChunkSize : State::kToClose;
    return Status::Ok();
  }
  auto found = head_.headers.find("content-length");
  if (found == head_.headers.end()) {
    framed_ = false;
    state_ = State::kToClose;
    return Status::Ok();
  }
  uint64_t length = 0;
  if (!ParseContentLength(found->second, length)) {
    return Malformed("Content-Length \"" + found->second.substr(0, 64) + "\"");
  }
  content_length_ = length;
  remaining_ = length;
  state_ = length == 0 ? State::kDone : State::kLength;
  return Status::Ok();
}

bool ResponseParser::Deliver(std::string_view bytes, const BodySink& sink) {
  if (bytes.empty() || sink(bytes)) return true;
  stopped_ = true;
  return false;
}

size_t ResponseParser::FeedBody(std::string_view data, const BodySink& sink, Status& status) {
  (void)status;
  if (state_ == State::kToClose) {
    Deliver(data, sink);
    return data.size();
  }
  size_t take = static_cast<size_t>(std::min<uint64_t>(remaining_, data.size()));
  remaining_ -= take;
  if (remaining_ == 0) state_ = state_ == State::kLength ? State::kDone : State::kChunkEnd;
  Deliver(data.substr(0, take), sink);
  return take;
}

size_t ResponseParser::FeedChunkLine(std::string_view data, Status& status) {
  size_t newline = data.find('\n');
  size_t cap = state_ == State::kTrailers ? max_header_bytes_ : kMaxChunkLine;
  line_.append(data.substr(0, newline));
  if (line_.size() > cap) {
    status = Malformed("chunk framing line longer than " + std::to_string(cap) + " bytes");
    return data.size();
  }
  if (newline == std::string_view::npos) return data.size();
  std::string line(AsciiText::Trim(line_));
  line_.clear();
  if (state_ == State::kChunkEnd) {
    if (!line.empty()) status = Malformed("chunk not followed by CRLF");
    state_ = State::kChunkSize;
  } else if (state_ == State::kTrailers) {
    if (line.empty()) state_ = State::kDone;
  } else {
    std::string_view size_text = line;
    size_text = size_text.substr(0, size_text.find(';'));
    size_text = AsciiText::Trim(size_text);
    uint64_t size = 0;
    auto [end, error] =
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
    if (size_text.empty() || error != std::errc() || end != size_text.data() + size_text.size()) {
      status = Malformed("chunk size \"" + line.substr(0, 64) + "\"");
    }
    remaining_ = size;
    state_ = size == 0 ? State::kTrailers : State::kChunkData;
  }
  return newline + 1;
}

Status ResponseParser::Close() {
  switch (state_) {
    case State::kDone:
      return Status::Ok();
    case State::kToClose:
      state_ = State::kDone;
      return Status::Ok();
    case State::kHead:
      return Status(StatusCode::kUnavailable,
                    received_any_ ? "connection closed in the middle of the response head"
                                  : "connection closed before a response");
    default:
      return Status(StatusCode::kUnavailable, "connection closed before the end of the body");
  }
}

}  // namespace kube
